import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { RequestContext } from './access-policy.ts';
import { transitionFor } from './workflow-rules.ts';
import { encodeColumns, notFound } from './record-values.ts';
import type { EntityReader } from './entity-reader.ts';
import type { EntityWriter } from './entity-writer.ts';
import type { ActionEvent, WriteEvents } from './write-events.ts';
import type { ServiceCore } from './service-core.ts';

type Row = Record<string, unknown>;

/**
 * A workflow action: moves the status along a declared transition, with the
 * transition's own fields from the body, in one transaction with whatever
 * the entity's action listeners do (posting, reversing) and the audit row.
 */
export async function runAction(
  parts: { core: ServiceCore; reader: EntityReader; writer: EntityWriter; events: WriteEvents },
  entity: EntitySchema, id: number, action: string, body: unknown, ctx: RequestContext,
): Promise<Row> {
  const { core, events } = parts;
  if (!entity.workflow || entity.kind === 'lines') throw new AppError('NOT_FOUND', `${entity.label.en} has no actions`);
  core.policy.assertAllowed(ctx, entity, 'update');
  return events.transaction(entity, (trx) => runActionIn(parts, trx, entity, id, action, body, ctx));
}

/** The same action inside a transaction the caller holds (a sale made and posted in one). */
export async function runActionIn(
  parts: { core: ServiceCore; reader: EntityReader; writer: EntityWriter; events: WriteEvents },
  trx: Kysely<any>, entity: EntitySchema, id: number, action: string, body: unknown, ctx: RequestContext,
  /** The record with its lines as this transaction just wrote it (createAndRun): not read again. */
  preloaded?: Row,
): Promise<Row> {
  const { core, reader, writer, events } = parts;
  const w = entity.workflow;
  if (!w || entity.kind === 'lines') throw new AppError('NOT_FOUND', `${entity.label.en} has no actions`);
  core.policy.assertAllowed(ctx, entity, 'update');
  const sent = (body ?? {}) as Row;
  if (typeof sent !== 'object' || Array.isArray(sent)) throw new AppError('BAD_REQUEST', 'Send the action\'s fields as a JSON object, or no body');
  const before = preloaded ?? await reader.loadRow(trx, entity, id, ctx);
  if (!before) throw notFound(entity, id);
  const t = transitionFor(entity, action, before[w.field]);
  if (t.permission && !core.policy.can(ctx, t.permission, 'edit')) {
    throw new AppError('FORBIDDEN', `Your role may not ${t.label.en.toLowerCase()} ${entity.labelPlural?.en ?? entity.label.en} (needs edit on ${t.permission})`);
  }
  const extra = Object.keys(sent).filter((k) => !(t.fields ?? []).includes(k));
  if (extra.length) {
    throw new AppError('UNKNOWN_FIELD', `"${t.label.en}" takes ${t.fields?.length ? `only ${t.fields.join(', ')}` : 'no fields'}; not ${extra.join(', ')}`, {
      fields: extra.map((field) => ({ field, code: 'unknown_field', message: 'is not a field of this action' })),
    });
  }
  // judged with the new state: a field `requiredIf` a state (a posted document's reference) is demanded by the action that reaches it
  writer.checkBody(entity, 'patch', { ...sent, [w.field]: t.to }, before);
  const input: Row = { ...sent, [w.field]: t.to };
  core.policy.assertWritableRow(ctx, entity, { ...before, ...input }, 'update');
  const fields = Object.keys(sent);
  // the status counts as changed: a role that may not change it (the portal's customer) may not run actions either
  core.policy.assertFieldWrites(ctx, entity, before, [w.field, ...writer.changes(entity, before, sent, ctx).filter((f) => fields.includes(f))]);
  const beforeWhole = preloaded ?? { ...before, ...(await reader.loadLines(trx, entity, id)) };
  const stamp = { updated_at: new Date().toISOString(), updated_by: ctx.userId };
  await trx.updateTable(entity.name)
    .set({ ...encodeColumns(entity, sent), [w.field]: t.to, ...stamp })
    .where('id', '=', id).execute();
  // an action without fields (a posting) changed only the status and the stamp: its listeners get the document as read
  // before with those, and it is read again after them only when one of them wrote it (event.recordWritten)
  let after = fields.length ? await reader.readWhole(trx, entity, id) : { ...beforeWhole, [w.field]: t.to, ...stamp };
  const event: ActionEvent = { entity, id, action, from: String(before[w.field]), to: t.to, before: beforeWhole, after, body: sent, ctx };
  const listeners = events.actionListeners(entity);
  for (const l of listeners) await l(trx, event);
  if (event.recordWritten) after = await reader.readWhole(trx, entity, id);
  await events.emit(trx, { entity: entity.name, id, action: 'update', before: beforeWhole, after, ctx, workflowAction: action });
  return after;
}
