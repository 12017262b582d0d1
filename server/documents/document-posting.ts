import type { Kysely } from 'kysely';
import type { DocumentSource, EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';
import { columnDefs, decodeRow, scaleOf } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { doneOf, giveBackProgress, takeProgress } from './document-progress.ts';
import { nextNumber } from '../crud/numbering-series.ts';
import { isEmpty } from '../crud/record-values.ts';

type Row = Record<string, unknown>;

export interface LinesOf {
  field: string;
  entity: EntitySchema;
  parentField: string;
}

export function linesOf(service: EntityService, entity: EntitySchema): LinesOf {
  const field = entity.document!.lines;
  const child = service.entity(fieldOf(entity, field)!.entity!);
  return { field, entity: child, parentField: child.parent!.field };
}

/** A line field's value as the scaled integer it is stored as (exact sums and comparisons). */
export function scaled(entity: EntitySchema, field: string, value: unknown): number {
  const f = fieldOf(entity, field);
  return value === null || value === undefined ? 0 : toScaledInteger(Number(value), f ? scaleOf(f) : 0);
}

export function unscaled(entity: EntitySchema, field: string, value: number): number {
  const f = fieldOf(entity, field);
  const s = f ? scaleOf(f) : 0;
  return Number((value / 10 ** s).toFixed(s));
}

function sourceOf(target: EntitySchema, line: Row): DocumentSource | undefined {
  const from = target.document?.from ?? [];
  if (from.length === 1) return from[0];
  return from.find((f) => f.source === line.source_entity);
}

/** Moves a source's status to follow what posted documents of `target` have processed of it. */
async function followStatus(trx: Kysely<any>, service: EntityService, target: EntitySchema, spec: DocumentSource, sourceId: number): Promise<void> {
  const source = service.entity(spec.source);
  const w = source.workflow!;
  const lines = linesOf(service, source);
  const measure = spec.measure ?? 'qty';
  const header = await trx.selectFrom(source.name).select(w.field).where('id', '=', sourceId).executeTakeFirst();
  const current = String(header?.[w.field]);
  const managed = new Set([...spec.states, spec.partial, spec.complete].filter(Boolean) as string[]);
  if (!header || !managed.has(current)) return;
  const rows = await trx.selectFrom(lines.entity.name).select(['id', measure]).where(lines.parentField, '=', sourceId).execute();
  const done = await doneOf(trx, source.name, target.name, rows.map((r) => Number(r.id)));
  const all = rows.length > 0 && rows.every((r) => (done.get(Number(r.id)) ?? 0) >= Number(r[measure]));
  const some = rows.some((r) => (done.get(Number(r.id)) ?? 0) > 0);
  const next = all && spec.complete ? spec.complete : some && spec.partial ? spec.partial : !some ? spec.states[0]! : current;
  if (next !== current) await trx.updateTable(source.name).set({ [w.field]: next, updated_at: new Date().toISOString() }).where('id', '=', sourceId).execute();
}

/** Posting counts what each line takes of its source line; over-processing refuses the whole posting. */
async function post(trx: Kysely<any>, service: EntityService, e: ActionEvent): Promise<void> {
  const target = e.entity;
  const lines = linesOf(service, target);
  const touched = new Map<string, { spec: DocumentSource; ids: Set<number> }>();
  for (const [i, line] of ((e.after[lines.field] as Row[] | undefined) ?? []).entries()) {
    if (line.source_line_id === null || line.source_line_id === undefined) continue;
    const spec = sourceOf(target, line);
    const where = `${lines.field}.${i}`;
    if (!spec) throw new AppError('VALIDATION_FAILED', `${where}: the line names a source line, but not which document it comes from`, { fields: [{ field: `${where}.source_line_id`, code: 'source', message: 'has no source document' }] });
    const source = service.entity(spec.source);
    const srcLines = linesOf(service, source);
    const measure = spec.measure ?? 'qty';
    const srcLine = await trx.selectFrom(srcLines.entity.name).select(['id', measure, srcLines.parentField]).where('id', '=', Number(line.source_line_id)).executeTakeFirst();
    const header = srcLine && await trx.selectFrom(source.name).selectAll().where('id', '=', Number(srcLine[srcLines.parentField])).executeTakeFirst();
    if (!srcLine || !header) throw new AppError('VALIDATION_FAILED', `${where}: its source line ${line.source_line_id} does not exist`, { fields: [{ field: `${where}.source_line_id`, code: 'link', message: 'does not exist' }] });
    const sourceNo = String(header[source.titleField] ?? header.id);
    const state = String(header[source.workflow!.field]);
    // a completed source is still a source: what is left on it (nothing) decides, as OVER_PROCESSED
    if (![...spec.states, spec.partial, spec.complete].includes(state)) {
      throw new AppError('INVALID_TRANSITION', `${where}: ${source.label.en} ${sourceNo} is ${state}, so nothing more can be processed from it`, { line: where, source: sourceNo, state });
    }
    const decoded = decodeRow(columnDefs(source), header, null);
    for (const h of spec.header ?? []) {
      if (JSON.stringify(e.after[h] ?? null) !== JSON.stringify(decoded[h] ?? null)) {
        throw new AppError('VALIDATION_FAILED', `${where}: its source ${sourceNo} has another ${h}`, { fields: [{ field: `${where}.source_line_id`, code: 'source', message: `belongs to a document with another ${h}` }] });
      }
    }
    const amount = scaled(lines.entity, measure, line[measure]);
    const limit = Number(srcLine[measure]);
    const key = { source: source.name, sourceLineId: Number(srcLine.id), target: target.name };
    if (!(await takeProgress(trx, key, amount, limit))) {
      const left = limit - ((await doneOf(trx, source.name, target.name, [key.sourceLineId])).get(key.sourceLineId) ?? 0);
      throw new AppError('OVER_PROCESSED', `${where}: ${source.label.en} ${sourceNo} has only ${unscaled(srcLines.entity, measure, left)} ${measure} left on that line, not ${line[measure]}`, {
        line: where, source: sourceNo, source_line_id: key.sourceLineId, remaining: unscaled(srcLines.entity, measure, left), asked: line[measure],
      });
    }
    await trx.insertInto('document_link').values({ target_entity: target.name, target_line_id: Number(line.id), source_entity: source.name, source_line_id: key.sourceLineId, amount }).execute();
    const t = touched.get(source.name) ?? { spec, ids: new Set<number>() };
    t.ids.add(Number(srcLine[srcLines.parentField]));
    touched.set(source.name, t);
  }
  for (const { spec, ids } of touched.values()) for (const id of ids) await followStatus(trx, service, target, spec, id);
}

/** Cancelling gives back what the document's posting took, and its sources' statuses follow. */
async function reverse(trx: Kysely<any>, service: EntityService, e: ActionEvent): Promise<void> {
  const target = e.entity;
  const lines = linesOf(service, target);
  const lineIds = ((e.before[lines.field] as Row[] | undefined) ?? []).map((l) => Number(l.id));
  if (!lineIds.length) return;
  const links = await trx.selectFrom('document_link').selectAll().where('target_entity', '=', target.name).where('target_line_id', 'in', lineIds).execute();
  const touched = new Map<string, Set<number>>();
  for (const l of links) {
    await giveBackProgress(trx, { source: String(l.source_entity), sourceLineId: Number(l.source_line_id), target: target.name }, Number(l.amount));
    const source = service.entity(String(l.source_entity));
    const srcLines = linesOf(service, source);
    const row = await trx.selectFrom(srcLines.entity.name).select(srcLines.parentField).where('id', '=', Number(l.source_line_id)).executeTakeFirst();
    if (row) touched.set(source.name, (touched.get(source.name) ?? new Set()).add(Number(row[srcLines.parentField])));
  }
  await trx.deleteFrom('document_link').where('target_entity', '=', target.name).where('target_line_id', 'in', lineIds).execute();
  for (const [name, ids] of touched) {
    const spec = target.document!.from!.find((f) => f.source === name)!;
    for (const id of ids) await followStatus(trx, service, target, spec, id);
  }
}

/** Hooks posting and reversing into the workflow actions of every document entity that is created from others. */
export function installDocumentPosting(service: EntityService): void {
  service.onAction(async (trx, e) => {
    const d = e.entity.document;
    if (!d) return;
    if (e.action === (d.postAction ?? 'approve')) {
      await numberOnPost(trx, e);
      if (d.from?.length) await post(trx, service, e);
    } else if (e.action === (d.cancelAction ?? 'cancel') && d.from?.length) {
      await reverse(trx, service, e);
    }
  });
}

/**
 * A series drawn on posting (tax invoices) is consecutive with no gaps: the
 * number is taken in the posting's transaction, so a posting that fails gives
 * it back, and drafts that are deleted never had one.
 */
async function numberOnPost(trx: Kysely<any>, e: ActionEvent): Promise<void> {
  const n = e.entity.numbering;
  if (n?.assignOn !== 'post' || !isEmpty(e.after[n.field])) return;
  const no = await nextNumber(trx, e.entity);
  await trx.updateTable(e.entity.name).set({ [n.field]: no }).where('id', '=', e.id).execute();
  e.after[n.field] = no;
}
