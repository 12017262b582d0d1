import type { Kysely } from 'kysely';
import type { DocumentSource, EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { doneOf } from './document-progress.ts';
import { linesOf } from './document-posting.ts';

type Row = Record<string, unknown>;
type Processed = 'none' | 'partial' | 'complete';

/** What posted documents of `target` have processed of the source's lines, all together. */
async function processedOf(trx: Kysely<any>, service: EntityService, source: EntitySchema, target: EntitySchema, spec: DocumentSource, sourceId: number): Promise<Processed> {
  const lines = linesOf(service, source);
  const measure = spec.measure ?? 'qty';
  const rows = await trx.selectFrom(lines.entity.name).select(['id', measure]).where(lines.parentField, '=', sourceId).execute();
  const done = await doneOf(trx, source.name, target.name, rows.map((r) => Number(r.id)));
  if (rows.length > 0 && rows.every((r) => (done.get(Number(r.id)) ?? 0) >= Number(r[measure]))) return 'complete';
  return rows.some((r) => (done.get(Number(r.id)) ?? 0) > 0) ? 'partial' : 'none';
}

/** A tracked field's value; empty (a row older than the field) counts as its default, "nothing processed". */
function trackedValue(source: EntitySchema, header: Row, field: string): string {
  return String(header[field] ?? fieldOf(source, field)!.default);
}

/**
 * Moves a source's statuses to follow what posted documents of `target` have
 * processed of it. Without `tracks`, the workflow status itself follows
 * (`partial`, `complete`). With `tracks`, the tracked field follows this kind
 * of document alone (a sales order's delivery status its deliveries, its billing
 * status its tax invoices), and the workflow status follows all the tracked
 * fields together: complete when each holds its `completeWhen` value, partial
 * while any is off its default. A source in a state the declaration does not
 * manage (a closed order) keeps its workflow status; its tracked fields still
 * follow, since they state facts.
 */
export async function followStatus(trx: Kysely<any>, service: EntityService, target: EntitySchema, spec: DocumentSource, sourceId: number): Promise<void> {
  // a target that declares nothing (billing notes of a sales order; deliveries of a production report, whose
  // status its goods receipts drive) counts against the source but leaves its statuses alone
  if (!spec.partial && !spec.complete && !spec.tracks) return;
  const source = service.entity(spec.source);
  const w = source.workflow!;
  const when = spec.tracks ? source.document?.completeWhen ?? {} : {};
  const columns = [...new Set([w.field, ...Object.keys(when), ...(spec.tracks ? [spec.tracks.field] : [])])];
  const header = await trx.selectFrom(source.name).select(columns).where('id', '=', sourceId).executeTakeFirst() as Row | undefined;
  if (!header) return;
  const processed = await processedOf(trx, service, source, target, spec, sourceId);
  const set: Row = {};
  if (spec.tracks) {
    const t = spec.tracks;
    const value = processed === 'complete' ? t.complete : processed === 'partial' ? t.partial : String(fieldOf(source, t.field)!.default);
    if (header[t.field] !== value) set[t.field] = header[t.field] = value;
  }
  const current = String(header[w.field]);
  const managed = new Set([...spec.states, spec.partial, spec.complete].filter(Boolean) as string[]);
  if ((spec.partial || spec.complete) && managed.has(current)) {
    let all = processed === 'complete';
    let some = processed !== 'none';
    if (spec.tracks) {
      const entries = Object.entries(when);
      all = entries.every(([f, v]) => trackedValue(source, header, f) === v);
      some = entries.some(([f]) => trackedValue(source, header, f) !== String(fieldOf(source, f)!.default));
    }
    const next = all && spec.complete ? spec.complete : some && spec.partial ? spec.partial : !some ? spec.states[0]! : current;
    if (next !== current) set[w.field] = next;
  }
  if (Object.keys(set).length) await trx.updateTable(source.name).set({ ...set, updated_at: new Date().toISOString() }).where('id', '=', sourceId).execute();
}
