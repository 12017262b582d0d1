import { sql, type Kysely } from 'kysely';
import { runRiding, type NamedRider, type Rider } from '../db/riding-statements.ts';
import { inBatches } from '../db/batches.ts';
import { BALANCE_KEY, type StockKey } from './stock-key.ts';
import { totalsRows, totalsUpsert } from './balance-totals.ts';
import { upsertMovementDays, type DayRow } from './movement-days.ts';

/**
 * The balance rows of one posting, read, locked and written a few statements
 * per document rather than a few per line (each statement is a round trip to
 * PostgreSQL). Plain Kysely on both dialects: the lock is the row lock that
 * `INSERT … ON CONFLICT DO UPDATE` takes on PostgreSQL; SQLite runs one writer
 * at a time (`BEGIN IMMEDIATE`), so what a write transaction reads stays true
 * until it commits.
 */
export interface Held { qty: number; value: number }

const KEY_COLUMNS = BALANCE_KEY;

const keyRow = (k: StockKey) => ({ product_id: k.productId, inventory_id: k.inventoryId, location_id: k.locationId ?? 0, lot_no: k.lotNo ?? '', expiry_date: k.expiryDate ?? '', container_id: k.containerId ?? 0 });

const rowKey = (r: Record<string, unknown>): string => [Number(r.product_id), Number(r.inventory_id), Number(r.location_id), String(r.lot_no), String(r.expiry_date), Number(r.container_id)].join('|');

/** A balance row an open out may take from (FEFO order is the order of the list). */
export interface Candidate { productId: number; inventoryId: number; locationId: number; lotNo: string; expiryDate: string; containerId: number; qty: number }

/** What open outs name of the rows they take from: product and inventory, and location, lot or expiry where given. */
export interface OpenGroup { productId: number; inventoryId: number; locationId: number | null; lotNo: string | null; expiryDate: string | null; containerId: number | null }

/** Rows without an expiry date come last; the index `stock_balance_fefo` has the same expression, so the order is read from it. */
const NO_EXPIRY_LAST = sql<number>`case when expiry_date = '' then 1 else 0 end`;

/**
 * For each group, the first `limit` rows with stock that match it (all of
 * them when `limit` is null), earliest expiry first (rows without an expiry
 * last, then by lot, location and container), in one read. Each list is a FEFO prefix
 * of the rows its group may take, read from the partial index, so a delivery
 * does not read every lot a product ever had. Not locked: what is taken from
 * them is locked and re-checked by `lockBalances`.
 */
export async function candidatesOf(trx: Kysely<any>, groups: OpenGroup[], limit: number | null): Promise<Candidate[][]> {
  const out: Candidate[][] = groups.map(() => []);
  const numbered = groups.map((g, i) => ({ g, i }));
  for (const batch of inBatches(numbered, 8)) {
    const parts = batch.map(({ g, i }) => trx.selectFrom((eb) => {
      let q = eb.selectFrom('stock_balance').select([sql<number>`${sql.lit(i)}`.as('g'), ...KEY_COLUMNS, 'qty', NO_EXPIRY_LAST.as('no_expiry')])
        // `qty > 0` written out, not bound: the partial index is only used when the query's condition matches its own
        .where('product_id', '=', g.productId).where('inventory_id', '=', g.inventoryId).where(sql<boolean>`qty > 0`);
      if (g.locationId !== null) q = q.where('location_id', '=', g.locationId);
      if (g.lotNo !== null) q = q.where('lot_no', '=', g.lotNo);
      if (g.expiryDate !== null) q = q.where('expiry_date', '=', g.expiryDate);
      if (g.containerId !== null) q = q.where('container_id', '=', g.containerId);
      q = q.orderBy(NO_EXPIRY_LAST).orderBy('expiry_date').orderBy('lot_no').orderBy('location_id').orderBy('container_id');
      return (limit === null ? q : q.limit(limit)).as(`g${i}`);
    }).selectAll());
    let all = parts[0]!;
    for (const p of parts.slice(1)) all = all.unionAll(p);
    const rows = await all.orderBy('g').orderBy('no_expiry').orderBy('expiry_date').orderBy('lot_no').orderBy('location_id').orderBy('container_id').execute();
    for (const r of rows) {
      out[Number(r.g)]!.push({ productId: Number(r.product_id), inventoryId: Number(r.inventory_id), locationId: Number(r.location_id), lotNo: String(r.lot_no), expiryDate: String(r.expiry_date), containerId: Number(r.container_id), qty: Number(r.qty) });
    }
  }
  return out;
}

/**
 * Locks the balance rows of these keys (given in key order, so two postings
 * over the same rows lock them in the same order and cannot deadlock), making
 * the missing ones at zero, and answers what each holds now. On PostgreSQL the
 * rows stay locked until the transaction ends, so nothing read here can change
 * before this posting writes.
 */
export async function lockBalances(trx: Kysely<any>, keys: StockKey[]): Promise<Map<string, Held>> {
  const held = new Map<string, Held>();
  for (const batch of inBatches(keys, 7)) {
    const rows = await trx.insertInto('stock_balance').values(batch.map((k) => ({ ...keyRow(k), qty: 0, value: 0 })))
      // a no-op update, not DO NOTHING: only an update locks an existing row and returns it
      .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doUpdateSet({ qty: sql`stock_balance.qty` }))
      .returning([...KEY_COLUMNS, 'qty', 'value'])
      .execute();
    for (const r of rows) held.set(rowKey(r), { qty: Number(r.qty), value: Number(r.value) });
  }
  return held;
}

/**
 * What a posting sends with its last balance statement: its ledger rows and its day summary rows, which
 * ride in that statement as data-modifying CTEs on PostgreSQL, so the whole ledger write is one round
 * trip (runRiding in server/db says why and what SQLite does instead).
 */
/** `ledger`: the table of the movements (server/stock/stock-entities.ts). */
export interface LedgerRiders { ledger: string; movements: Record<string, unknown>[]; days: DayRow[]; named?: NamedRider[] }

/** The newest snapshot date, read in the statement that writes the ledger (see addToBalances). */
const LAST_SNAPSHOT = sql<string | null>`(select max(${sql.ref('as_of_date')}) from ${sql.table('stock_snapshot_date')})`;

/**
 * Adds each key's change (qty and value) to its row, which `lockBalances` holds, and to its
 * product and inventory total (stock_balance_total); answers the rows as written. With `riders`,
 * the last statement also writes them and answers the newest snapshot date as it saw it, read after
 * the ledger rows are written: a snapshot either committed before (and is seen) or waits for this
 * posting's commit (and sums its movements).
 */
export async function addToBalances(trx: Kysely<any>, changes: { key: StockKey; qty: number; value: number; firstInDay?: string | null }[], riders?: LedgerRiders): Promise<{ written: Map<string, Held>; lastSnapshot: string | null; named: Record<string, unknown> }> {
  const written = new Map<string, Held>();
  let lastSnapshot: string | null = null;
  let named: Record<string, unknown> = {};
  const batches = inBatches(changes, 8);
  for (const [i, batch] of batches.entries()) {
    const upsert = (qc: Pick<Kysely<any>, 'insertInto'>) => qc.insertInto('stock_balance').values(batch.map((c) => ({ ...keyRow(c.key), qty: c.qty, value: c.value, first_in_day: c.firstInDay ?? '' })))
      .onConflict((oc) => oc.columns([...KEY_COLUMNS]).doUpdateSet({
        qty: sql`stock_balance.qty + excluded.qty`,
        value: sql`stock_balance.value + excluded.value`,
        // the earlier day of a movement in ('' = none)
        first_in_day: sql`case when excluded.first_in_day <> '' and (stock_balance.first_in_day = '' or excluded.first_in_day < stock_balance.first_in_day) then excluded.first_in_day else stock_balance.first_in_day end`,
      }))
      .returning([...KEY_COLUMNS, 'qty', 'value']);
    const last = i === batches.length - 1;
    // the totals after the balance rows (balance rows locked first, totals after, in key order: no deadlock)
    const after: Rider<any>[] = last ? totalsRows(changes).map((t) => ({ rows: t.rows, batch: t.key.length + 2, write: (qc, rows) => totalsUpsert(qc, t, rows) })) : [];
    const before: Rider<any>[] = last && riders ? [
      { rows: riders.movements, batch: 21, write: (qc, rows) => qc.insertInto(riders.ledger).values(rows) },
      { rows: riders.days, batch: 7, write: (qc, rows) => upsertMovementDays(qc, rows) },
    ] : [];
    const done = await runRiding(trx, { main: upsert, before, after, probe: last && riders ? LAST_SNAPSHOT : undefined, named: last ? riders?.named : undefined });
    if (done.probe) lastSnapshot = String(done.probe);
    if (last) named = done.named;
    for (const r of done.rows) written.set(rowKey(r), { qty: Number(r.qty), value: Number(r.value) });
  }
  return { written, lastSnapshot, named };
}
