import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { processedState } from './line-capacity.ts';

type Row = Record<string, unknown>;
type Processed = 'none' | 'partial' | 'complete';

/** What posted documents of `target` have processed of the source's lines, all together (measured as posting measures). */
async function processedOf(trx: Kysely<any>, service: EntityService, source: EntitySchema, target: EntitySchema, spec: DocumentSource, sourceId: number): Promise<Processed> {
  const { all, some } = await processedState(trx, service, source, target, spec.measure ?? 'qty', sourceId);
  return all ? 'complete' : some ? 'partial' : 'none';
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
  const current = String(header[w.field]);
  const managed = [...new Set([...spec.states, spec.partial, spec.complete].filter(Boolean) as string[])];
  const follows = (spec.partial || spec.complete) && managed.includes(current);
  if (!spec.tracks && !follows) return;
  const processed = await processedOf(trx, service, source, target, spec, sourceId);
  if (!spec.tracks) {
    const next = nextState(spec, current, processed === 'complete', processed !== 'none');
    if (next !== current) await trx.updateTable(source.name).set({ [w.field]: next, updated_at: new Date().toISOString() }).where('id', '=', sourceId).execute();
    return;
  }
  const t = spec.tracks;
  const value = processed === 'complete' ? t.complete : processed === 'partial' ? t.partial : String(fieldOf(source, t.field)!.default);
  const seen = { ...header, [t.field]: value };
  const entries = Object.entries(when);
  const expected = follows ? nextState(spec, current, entries.every(([f, v]) => trackedValue(source, seen, f) === v), entries.some(([f]) => trackedValue(source, seen, f) !== String(fieldOf(source, f)!.default))) : current;
  if (header[t.field] === value && expected === current) return;
  // one statement that works the workflow status out from the row as it is when this transaction holds it: a
  // delivery and a tax invoice of the same order posted at once each see the other's tracked field (PostgreSQL
  // re-reads a row updated meanwhile before it writes it), so the order cannot end delivered, billed and in progress
  const is = (f: string, v: string) => (f === t.field ? sql.lit(value === v) : sql`coalesce(${sql.ref(f)}, ${String(fieldOf(source, f)!.default)}) = ${v}`);
  const all = entries.length ? sql.join(entries.map(([f, v]) => is(f, v)), sql` and `) : sql.lit(false);
  const some = entries.length ? sql.join(entries.map(([f]) => sql`not (${is(f, String(fieldOf(source, f)!.default))})`), sql` or `) : sql.lit(false);
  const branches = [
    ...(spec.complete ? [sql`when ${all} then ${spec.complete}`] : []),
    ...(spec.partial ? [sql`when ${some} then ${spec.partial}`] : []),
    sql`when not (${some}) then ${spec.states[0]!}`,
  ];
  const status = (spec.partial || spec.complete)
    ? sql`case when ${sql.ref(w.field)} in (${sql.join(managed)}) then case ${sql.join(branches, sql` `)} else ${sql.ref(w.field)} end else ${sql.ref(w.field)} end`
    : sql.ref(w.field);
  await trx.updateTable(source.name).set({ [t.field]: value, [w.field]: status, updated_at: new Date().toISOString() }).where('id', '=', sourceId).execute();
}

/** The workflow state a source moves to when all, or some, of it is processed (spec.states[0] when nothing is). */
function nextState(spec: DocumentSource, current: string, all: boolean, some: boolean): string {
  return all && spec.complete ? spec.complete : some && spec.partial ? spec.partial : !some ? spec.states[0]! : current;
}
