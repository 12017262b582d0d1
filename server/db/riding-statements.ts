import { sql, type Kysely, type RawBuilder } from 'kysely';
import { onPostgres } from './dialect-adapter.ts';
import { inBatches } from './batches.ts';

/** Something that builds a statement on a query creator (the transaction, or a CTE's creator on PostgreSQL). */
type Build = (qc: Kysely<any>) => { execute(): Promise<any> };

/** Rows written by one data-modifying statement (`write`), in batches of `batch` rows where a statement of its own is sent. */
export interface Rider<R = Record<string, unknown>> { rows: R[]; batch: number; write: (qc: Kysely<any>, rows: R[]) => { execute(): Promise<any> } }

/**
 * Runs a statement that answers rows (`main`, with RETURNING) together with data-modifying statements that
 * go with it (`before` and `after`), and reads one scalar (`probe`) as of the moment `before` holds its
 * locks; answers main's rows and the probe's value. The probe must read no table that rides: on
 * PostgreSQL it shares the statement's snapshot and sees none of the riders' rows, on SQLite it sees
 * those of `before`.
 *
 * PostgreSQL: one statement, `with b as (main), a… as (after…), r… as (before…) select b.*, (probe) from b`:
 * one round trip instead of one per statement. Measured on a posting (issue 35, the posting p99 on
 * PostgreSQL): each statement is a round trip while the posting holds the balance rows others post to,
 * and riding the ledger, day and totals rows in the balance statement took the last round trips before
 * commit away. The sub-statements see one snapshot and their locks are the statement's, so the probe
 * (taken after the statement's lock on what `before` writes) either sees a concurrent writer's commit or
 * is waited for by it.
 *
 * SQLite: one statement each, in order (before, probe, main, after); its WITH takes only SELECT (no
 * data-modifying CTEs), and its round trips are function calls, so nothing is gained by joining them.
 * The write transaction is the only writer, so the order changes nothing another could see.
 */
export async function runRiding(trx: Kysely<any>, s: {
  main: Build; before?: Rider<any>[]; after?: Rider<any>[]; probe?: RawBuilder<unknown>; named?: NamedRider[];
}): Promise<{ rows: Record<string, unknown>[]; probe: unknown; named: Record<string, unknown> }> {
  const before = (s.before ?? []).filter((r) => r.rows.length);
  const after = (s.after ?? []).filter((r) => r.rows.length);
  const named = s.named ?? [];
  // nothing rides: the statement alone, the same on both
  if (!before.length && !after.length && !s.probe && !named.length) return { rows: await s.main(trx).execute(), probe: null, named: {} };
  if (!onPostgres(trx)) {
    if (named.length) throw new Error('named riders ride only on PostgreSQL (writesRideOneStatement)');
    for (const r of before) for (const batch of inBatches(r.rows, r.batch)) await r.write(trx, batch).execute();
    const probe = s.probe ? (await sql<{ v: unknown }>`select ${s.probe} as v`.execute(trx)).rows[0]?.v ?? null : null;
    const rows = await s.main(trx).execute();
    for (const r of after) for (const batch of inBatches(r.rows, r.batch)) await r.write(trx, batch).execute();
    return { rows, probe, named: {} };
  }
  let q: any = trx.with('b', (qc) => s.main(qc as Kysely<any>) as any);
  for (const [j, r] of after.entries()) q = q.with(`a${j}`, (qc: Kysely<any>) => r.write(qc, r.rows));
  for (const [j, r] of before.entries()) q = q.with(`r${j}`, (qc: Kysely<any>) => r.write(qc, r.rows));
  for (const n of named) for (const [name, build] of n.ctes) q = q.with(name, build);
  let read = q.selectFrom('b').selectAll();
  if (s.probe) read = read.select(sql`${s.probe}`.as('riding_probe'));
  const extras = named.flatMap((n) => Object.keys(n.reads));
  // PostgreSQL evaluates a scalar subquery of the select list at the first row, while `b` still has rows to lock, and
  // reading a named CTE runs it: its locks would come between b's, in an order that differs between two statements
  // of other rows (a deadlock, seen at saturation). Gated on b's count, each read runs only once b has written all.
  for (const n of named) for (const [alias, value] of Object.entries(n.reads)) read = read.select(sql`(select ${value} where (select count(*) from b) >= 0)`.as(alias));
  const rows: Record<string, unknown>[] = await read.execute();
  const probe = s.probe ? rows[0]?.riding_probe ?? null : null;
  const first: Record<string, unknown> = Object.fromEntries(extras.map((k) => [k, rows[0]?.[k] ?? null]));
  for (const r of rows) { delete r.riding_probe; for (const k of extras) delete r[k]; }
  return { rows, probe, named: first };
}

/**
 * Statements that ride as CTEs of their own names (PostgreSQL only), which refer to each other by those names (an
 * entry's lines to the entry's id), and the scalars (`reads`, each a subquery over them) the statement answers
 * with its first row: the general ledger's entry riding in a posting's last balance statement
 * (server/stock/moved-values.ts `rideWithMovements`). The names must not clash with `b`, `a…` and `r…`.
 */
export interface NamedRider { ctes: [name: string, build: (qc: Kysely<any>) => any][]; reads: Record<string, RawBuilder<unknown>> }

/**
 * Whether several writes can go to the database as one statement (data-modifying WITH: PostgreSQL), for a writer
 * that holds rows others wait for and would spend a round trip per statement (the ledger's entry,
 * server/ledger/journal-writer.ts). SQLite has no data-modifying WITH, and its round trips are function calls.
 */
export function writesRideOneStatement(k: Kysely<any>): boolean {
  return onPostgres(k);
}
