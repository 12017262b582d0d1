import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { columnDefs, decodeRow } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { addProgress, holdProgress } from './document-progress.ts';
import { followStatus } from './status-follow.ts';
import { lineCapacities } from './line-capacity.ts';
import { inBatches } from '../db/batches.ts';
import { numberOnPost } from './document-numbering.ts';
import { linesOf, scaled, unscaled } from './document-lines.ts';
import { settleVatRemainder } from './vat-remainder.ts';
import { settleNoteVat } from './note-vat.ts';
import { settleLineRounding, type FinishingLine } from './line-rounding.ts';
import { refuseBeforeSource } from './document-dates.ts';
import { capacitiesOfLines, poolFlow, poolMembers, poolRoots, type PoolRoot } from './sale-balance.ts';

type Row = Record<string, unknown>;

/** The source a line takes from; a line saved before its document had several sources names none: its field's default. */
export function sourceOf(target: EntitySchema, lineEntity: EntitySchema, line: Row): DocumentSource | undefined {
  const from = target.document?.from ?? [];
  if (from.length === 1) return from[0];
  const named = line.source_entity ?? lineEntity.fields.source_entity?.default;
  return from.find((f) => f.source === named);
}

/** A line of the posted document that takes from a source line. */
interface Claim {
  where: string;
  line: Row;
  spec: DocumentSource;
  measure: string;
  amount: number;
  sourceLineId: number;
}

/** The source lines and headers the claims name, read in two statements per source kind. */
async function sourcesOf(trx: Kysely<any>, service: EntityService, claims: Claim[]) {
  const lines = new Map<DocumentSource, Map<number, Row>>();
  const headers = new Map<DocumentSource, Map<number, Row>>();
  for (const spec of new Set(claims.map((c) => c.spec))) {
    const source = service.entity(spec.source);
    const srcLines = linesOf(service, source);
    const ids = [...new Set(claims.filter((c) => c.spec === spec).map((c) => c.sourceLineId))];
    const byId = new Map<number, Row>();
    for (const batch of inBatches(ids, 1)) {
      for (const r of await trx.selectFrom(srcLines.entity.name).select(['id', spec.measure ?? 'qty', srcLines.parentField]).where('id', 'in', batch).execute()) byId.set(Number(r.id), r);
    }
    const parents = [...new Set([...byId.values()].map((r) => Number(r[srcLines.parentField])))];
    const heads = new Map<number, Row>();
    for (const batch of inBatches(parents, 1)) {
      for (const r of await trx.selectFrom(source.name).selectAll().where('id', 'in', batch).execute()) heads.set(Number(r.id), r);
    }
    lines.set(spec, byId);
    headers.set(spec, heads);
  }
  return { lines, headers };
}

/**
 * Posting counts what each line takes of its source line; over-processing
 * refuses the whole posting. A few statements per document, whatever its
 * length: the source lines and headers are read at once, the counters of all
 * the lines taken from are locked and read at once, every line is judged here
 * in document order (so the refusal names the same line as a line-by-line
 * posting would), then the counters, links and statuses are written.
 */
async function post(trx: Kysely<any>, service: EntityService, e: ActionEvent): Promise<void> {
  const target = e.entity;
  const lines = linesOf(service, target);
  const claims: Claim[] = [];
  for (const [i, line] of ((e.after[lines.field] as Row[] | undefined) ?? []).entries()) {
    if (line.source_line_id === null || line.source_line_id === undefined) continue;
    const spec = sourceOf(target, lines.entity, line);
    const where = `${lines.field}.${i}`;
    if (!spec) throw new AppError('VALIDATION_FAILED', `${where}: the line names a source line, but not which document it comes from`, { fields: [{ field: `${where}.source_line_id`, code: 'source', message: 'has no source document' }] });
    const measure = spec.measure ?? 'qty';
    claims.push({ where, line, spec, measure, amount: scaled(lines.entity, measure, line[measure]), sourceLineId: Number(line.source_line_id) });
  }
  if (!claims.length) return;
  const { lines: srcLineOf, headers } = await sourcesOf(trx, service, claims);
  // what each source line holds: its quantity, or its part of the source's total (line-capacity.ts)
  const caps = new Map<DocumentSource, Map<number, number>>();
  for (const [spec, heads] of headers) {
    const measure = spec.measure ?? 'qty';
    // a quantity is on the lines already read; an amount needs the whole source document
    caps.set(spec, measure === 'qty'
      ? new Map([...srcLineOf.get(spec)!].map(([id, r]) => [id, Number(r[measure])]))
      : await lineCapacities(trx, service, service.entity(spec.source), measure, [...heads.keys()]));
  }
  const held = await holdCounters(trx, service, target.name, srcLineOf);
  const pools = await poolState(trx, service, srcLineOf);
  const claimed = new Map<DocumentSource, Map<number, number>>();
  const decoded = new Map<string, Row>();
  const touched = new Map<DocumentSource, Set<number>>();
  const finishing: FinishingLine[] = [];
  for (const c of claims) {
    const { where, line, spec, measure } = c;
    const source = service.entity(spec.source);
    const srcLines = linesOf(service, source);
    const srcLine = srcLineOf.get(spec)!.get(c.sourceLineId);
    const header = srcLine && headers.get(spec)!.get(Number(srcLine[srcLines.parentField]));
    if (!srcLine || !header) throw new AppError('VALIDATION_FAILED', `${where}: its source line ${line.source_line_id} does not exist`, { fields: [{ field: `${where}.source_line_id`, code: 'link', message: 'does not exist' }] });
    const sourceNo = String(header[source.titleField] ?? header.id);
    const state = String(header[source.workflow!.field]);
    // a completed source is still a source: what is left on it (nothing) decides, as OVER_PROCESSED
    if (![...spec.states, spec.partial, spec.complete].includes(state)) {
      throw new AppError('INVALID_TRANSITION', `${where}: ${source.label.en} ${sourceNo} is ${state}, so nothing more can be processed from it`, { line: where, source: sourceNo, state });
    }
    refuseBeforeSource(target, source, spec, e.after, header, sourceNo);
    const headerKey = `${source.name}:${header.id}`;
    if (!decoded.has(headerKey)) decoded.set(headerKey, decodeRow(columnDefs(source), header, null));
    for (const h of spec.header ?? []) {
      // a header the source leaves empty is the target's to choose: a production report made for stock names no customer
      const fromSource = decoded.get(headerKey)![h] ?? null;
      if (fromSource !== null && JSON.stringify(e.after[h] ?? null) !== JSON.stringify(fromSource)) {
        // named in words a person can act on: a receipt typed by hand with VAT included, for a bill with VAT excluded
        throw new AppError('VALIDATION_FAILED', `${where}: its source ${sourceNo} has another ${h}`, { fields: [{ field: `${where}.source_line_id`, code: 'source_header', message: `belongs to a document with another ${h}`, params: { field: (target.fields[h] ?? source.fields[h])?.label ?? h, source: sourceNo } }] });
      }
    }
    // what this document's earlier lines already took of the same source line counts too
    const mine = claimed.get(spec) ?? new Map<number, number>();
    const pool = pools.get(spec);
    // in a shared capacity every member's take counts (an order billed, then received straight)
    const before = (pool ? pool.claimed.get(c.sourceLineId) ?? 0 : held.get(spec)!.get(c.sourceLineId) ?? 0) + (mine.get(c.sourceLineId) ?? 0);
    const root = pool?.roots.get(c.sourceLineId);
    if (root) await refuseBeyondRoot(trx, service, pool!, root, c.amount, where, line[measure]);
    const limit = caps.get(spec)!.get(c.sourceLineId) ?? 0;
    if (before + c.amount > limit) {
      const left = limit - before;
      throw new AppError('OVER_PROCESSED', `${where}: ${source.label.en} ${sourceNo} has only ${unscaled(srcLines.entity, measure, left)} ${measure} left on that line, not ${line[measure]}`, {
        line: where, source: sourceNo, source_line_id: c.sourceLineId, remaining: unscaled(srcLines.entity, measure, left), asked: line[measure],
      });
    }
    mine.set(c.sourceLineId, (mine.get(c.sourceLineId) ?? 0) + c.amount);
    claimed.set(spec, mine);
    if (before > 0 && before + c.amount === limit) finishing.push({ line, spec, sourceLineId: c.sourceLineId });
    touched.set(spec, (touched.get(spec) ?? new Set()).add(Number(srcLine[srcLines.parentField])));
  }
  for (const [spec, amounts] of claimed) {
    const written = await addProgress(trx, spec.source, target.name, amounts);
    // the counters are locked (PostgreSQL) or the writer is alone (SQLite): anything else is a broken lock
    for (const [id, amount] of amounts) {
      if (written.get(id) !== held.get(spec)!.get(id)! + amount) throw new Error(`progress of ${spec.source} line ${id} changed while a posting held it`);
    }
  }
  for (const batch of inBatches(claims, 5)) {
    await trx.insertInto('document_link').values(batch.map((c) => ({ target_entity: target.name, target_line_id: Number(c.line.id), source_entity: c.spec.source, source_line_id: c.sourceLineId, amount: c.amount }))).execute();
  }
  await settleLineRounding(trx, service, e, finishing);
  await settleVatRemainder(trx, service, e, touched);
  await settleNoteVat(trx, service, e, touched);
  // sources in id order, the same in every posting, so two postings over the same sources cannot deadlock
  for (const [spec, ids] of touched) for (const id of [...ids].sort((a, b) => a - b)) await followStatus(trx, service, target, spec, id);
}

/**
 * Locks the progress counters a posting judges, in one global order (source, then target, then line id) so two
 * postings cannot deadlock: its own kind's counters and, for a shared capacity (sale-balance.ts), those of every
 * member of the pool on the same lines and on the lines they were made from (an invoice line's order line).
 * Answers what this kind has done of each of its source lines.
 */
async function holdCounters(trx: Kysely<any>, service: EntityService, target: string, srcLineOf: Map<DocumentSource, Map<number, Row>>): Promise<Map<DocumentSource, Map<number, number>>> {
  const groups = new Map<string, Set<number>>();
  const want = (source: string, t: string, ids: number[]) => {
    const key = `${source}\u0000${t}`;
    groups.set(key, new Set([...(groups.get(key) ?? []), ...ids]));
  };
  for (const [spec, lines] of srcLineOf) {
    const ids = [...lines.keys()];
    want(spec.source, target, ids);
    if (!spec.pool) continue;
    for (const m of poolMembers(service, spec.source, spec.pool)) want(spec.source, m, ids);
    for (const r of (await poolRoots(trx, service, spec.source, spec.pool, ids)).values()) for (const m of poolMembers(service, r.source, spec.pool)) want(r.source, m, [r.lineId]);
  }
  const done = new Map<string, Map<number, number>>();
  for (const key of [...groups.keys()].sort()) {
    const [source, t] = key.split('\u0000') as [string, string];
    done.set(key, await holdProgress(trx, source, t, [...groups.get(key)!].sort((a, b) => a - b)));
  }
  return new Map([...srcLineOf.keys()].map((spec) => [spec, done.get(`${spec.source}\u0000${target}`)!]));
}

interface PoolState {
  pool: string;
  claimed: Map<number, number>;
  roots: Map<number, PoolRoot>;
  /** Per root line `source:id`: its capacity, what the pool took of it, and what this posting takes. */
  rootLeft: Map<string, { cap: number; taken: number }>;
}

/** For the sources taken in a shared capacity: what the pool took of each line, read under the counters' locks. */
async function poolState(trx: Kysely<any>, service: EntityService, srcLineOf: Map<DocumentSource, Map<number, Row>>): Promise<Map<DocumentSource, PoolState>> {
  const out = new Map<DocumentSource, PoolState>();
  for (const [spec, lines] of srcLineOf) {
    if (!spec.pool) continue;
    const ids = [...lines.keys()];
    const roots = await poolRoots(trx, service, spec.source, spec.pool, ids);
    const rootLeft = new Map<string, { cap: number; taken: number }>();
    for (const up of new Set([...roots.values()].map((r) => r.source))) {
      const upIds = [...new Set([...roots.values()].filter((r) => r.source === up).map((r) => r.lineId))];
      const caps = await capacitiesOfLines(trx, service, up, upIds);
      const { claimed } = await poolFlow(trx, service, up, spec.pool, upIds);
      for (const id of upIds) rootLeft.set(`${up}:${id}`, { cap: caps.get(id) ?? 0, taken: claimed.get(id) ?? 0 });
    }
    out.set(spec, { pool: spec.pool, claimed: (await poolFlow(trx, service, spec.source, spec.pool, ids)).claimed, roots, rootLeft });
  }
  return out;
}

/** A claim on a line made from another (a bill of an invoice line) may not take more than that line has left. */
async function refuseBeyondRoot(trx: Kysely<any>, service: EntityService, pool: PoolState, root: PoolRoot, amount: number, where: string, asked: unknown): Promise<void> {
  const state = pool.rootLeft.get(`${root.source}:${root.lineId}`)!;
  if (state.taken + amount <= state.cap) { state.taken += amount; return; }
  const source = service.entity(root.source);
  const lines = linesOf(service, source);
  const parent = await trx.selectFrom(lines.entity.name).select(lines.parentField).where('id', '=', root.lineId).executeTakeFirst();
  const head = parent ? await trx.selectFrom(source.name).select(['id', source.titleField]).where('id', '=', Number(parent[lines.parentField])).executeTakeFirst() : undefined;
  const sourceNo = String(head?.[source.titleField] ?? head?.id ?? root.lineId);
  const left = unscaled(lines.entity, 'amount', Math.max(state.cap - state.taken, 0));
  throw new AppError('OVER_PROCESSED', `${where}: ${source.label.en} ${sourceNo} has only ${left} amount left to collect on that line, not ${asked}`, {
    line: where, source: sourceNo, source_line_id: root.lineId, remaining: left, asked,
  });
}

/** Cancelling gives back what the document's posting took, and its sources' statuses follow. */
async function reverse(trx: Kysely<any>, service: EntityService, e: ActionEvent): Promise<void> {
  const target = e.entity;
  const lines = linesOf(service, target);
  const lineIds = ((e.before[lines.field] as Row[] | undefined) ?? []).map((l) => Number(l.id));
  if (!lineIds.length) return;
  const links: Row[] = [];
  for (const batch of inBatches(lineIds, 1)) links.push(...await trx.selectFrom('document_link').selectAll().where('target_entity', '=', target.name).where('target_line_id', 'in', batch).execute());
  const bySource = new Map<string, Map<number, number>>();
  for (const l of links) {
    const amounts = bySource.get(String(l.source_entity)) ?? new Map<number, number>();
    amounts.set(Number(l.source_line_id), (amounts.get(Number(l.source_line_id)) ?? 0) - Number(l.amount));
    bySource.set(String(l.source_entity), amounts);
  }
  const touched = new Map<string, Set<number>>();
  for (const name of [...bySource.keys()].sort()) {
    const amounts = bySource.get(name)!;
    await addProgress(trx, name, target.name, amounts);
    const srcLines = linesOf(service, service.entity(name));
    for (const batch of inBatches([...amounts.keys()], 1)) {
      for (const row of await trx.selectFrom(srcLines.entity.name).select(srcLines.parentField).where('id', 'in', batch).execute()) {
        touched.set(name, (touched.get(name) ?? new Set()).add(Number(row[srcLines.parentField])));
      }
    }
  }
  for (const batch of inBatches(lineIds, 1)) await trx.deleteFrom('document_link').where('target_entity', '=', target.name).where('target_line_id', 'in', batch).execute();
  for (const [name, ids] of touched) {
    const spec = target.document!.from!.find((f) => f.source === name)!;
    for (const id of [...ids].sort((a, b) => a - b)) await followStatus(trx, service, target, spec, id);
  }
}

/** Hooks posting and reversing into the workflow actions of every document entity that is created from others. */
export function installDocumentPosting(service: EntityService): void {
  service.onAction(async (trx, e) => {
    const d = e.entity.document!;
    if (e.action === (d.postAction ?? 'approve')) {
      await numberOnPost(trx, e);
      if (d.from?.length) await post(trx, service, e);
    } else if (e.action === (d.cancelAction ?? 'cancel') && d.from?.length) {
      await reverse(trx, service, e);
    }
  }, (entity) => !!entity.document);
}

