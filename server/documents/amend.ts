import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf, hasColumn } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { linesOf } from './document-lines.ts';
import { refuseClosedPeriod } from './closed-books.ts';

type Row = Record<string, unknown>;

/** What a client may send back of a record: its writable fields, without the server's own. */
function writable(entity: EntitySchema, row: Row, skip: Set<string>): Row {
  const out: Row = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.readOnly || !hasColumn(f) || skip.has(name) || row[name] === undefined) continue;
    out[name] = row[name];
  }
  return out;
}

/**
 * A posted document is never edited: it is cancelled, and an amendment is a
 * new draft copied from it that links back to it (`amended_from`), with a new
 * number. Its lines keep their source lines, so posting it counts them again.
 */
export async function amendDocument(service: EntityService, entityName: string, id: number, ctx: RequestContext): Promise<Row> {
  const entity = service.entity(entityName);
  const w = entity.workflow;
  if (!entity.document || !w || !fieldOf(entity, 'amended_from')) throw new AppError('NOT_FOUND', `A ${entity.label.en} cannot be amended`);
  const original = await service.get(entityName, id, ctx);
  const cancelled = w.transitions.find((t) => t.action === (entity.document!.cancelAction ?? 'cancel'))?.to;
  if (original[w.field] !== cancelled) {
    throw new AppError('INVALID_TRANSITION', `Cancel ${entity.label.en} ${original[entity.titleField]} first: only a cancelled document is amended`, { state: original[w.field] });
  }
  await refuseClosedPeriod(service.db.kysely, service, entity, original);
  const lines = linesOf(service, entity);
  // a series dated by its issue (tax documents) dates the amendment anew: it takes today's date, as any new draft
  const skip = new Set([w.field, entity.numbering?.field ?? '', 'amended_from', entity.numbering?.dateRule ? entity.numbering.dateField! : '']);
  const body: Row = { ...writable(entity, original, skip), [lines.field]: (original[lines.field] as Row[]).map((l) => writable(lines.entity, l, new Set())) };
  return service.create(entityName, body, ctx, { amended_from: id });
}
