import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { lockAgainstWriters } from '../db/dialect-sql.ts';
import { withKeyColumns, type StockKey } from './stock-key.ts';
import { businessDayEnd, businessDayOf } from './business-days.ts';

/**
 * Month-end snapshots of the stock ledger, so a balance as of a past date sums
 * one snapshot and the movements after it instead of the whole ledger.
 *
 * A snapshot of date S holds, per key, the sum of every movement dated before
 * the end of business day S (the start of S + 1 in the business time zone). It is kept exact without reposting: each movement written
 * later (a backdated receipt, a reversal) adds itself to every snapshot dated
 * on or after its own day, in the transaction that writes it, so a snapshot
 * is never stale and there is no queue to wait for.
 */
export async function ensureSnapshotTables(db: Database): Promise<void> {
  await withKeyColumns(db.kysely.schema.createTable('stock_snapshot').ifNotExists()
    .addColumn('as_of_date', 'text', (c) => c.notNull()))
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_snapshot_pk', ['as_of_date', 'product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date'])
    .execute();
  await db.kysely.schema.createIndex('stock_snapshot_inventory').ifNotExists().on('stock_snapshot').columns(['as_of_date', 'inventory_id', 'product_id']).execute();
  await db.kysely.schema.createIndex('stock_snapshot_product').ifNotExists().on('stock_snapshot').columns(['as_of_date', 'product_id']).execute();
  // the same snapshot summed per product and inventory: a balance of a whole inventory at a past date
  // reads a few hundred rows here instead of every lot of the detailed snapshot
  await db.kysely.schema.createTable('stock_snapshot_total').ifNotExists()
    .addColumn('as_of_date', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('inventory_id', 'integer', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_snapshot_total_pk', ['as_of_date', 'inventory_id', 'product_id'])
    .execute();
  await db.kysely.schema.createIndex('stock_snapshot_total_product').ifNotExists().on('stock_snapshot_total').columns(['as_of_date', 'product_id']).execute();
  // a database whose snapshots predate the totals gets them once, from the detailed rows
  const hasTotals = await db.kysely.selectFrom('stock_snapshot_total').select('as_of_date').limit(1).executeTakeFirst();
  if (!hasTotals) await totalsFromDetail(db.kysely, null);
  // the dates that have a snapshot: a key first moved by a backdated entry joins every later snapshot
  await db.kysely.schema.createTable('stock_snapshot_date').ifNotExists()
    .addColumn('as_of_date', 'text', (c) => c.primaryKey())
    .execute();
}

/** Sums the detailed snapshot rows of `date` (or of every date) into the per product and inventory totals. */
async function totalsFromDetail(k: Kysely<any>, date: string | null): Promise<void> {
  await sql`insert into stock_snapshot_total (as_of_date, product_id, inventory_id, qty)
    select as_of_date, product_id, inventory_id, sum(qty) from stock_snapshot
    ${date === null ? sql`` : sql`where as_of_date = ${date}`}
    group by as_of_date, product_id, inventory_id`.execute(k);
}

/** Adds one movement (signed, scaled qty) to every snapshot dated on or after its business day, detail and totals. */
export async function addToSnapshots(trx: Kysely<any>, k: StockKey, day: string, signedQty: number): Promise<void> {
  await sql`insert into stock_snapshot (as_of_date, product_id, inventory_id, location_id, lot_no, expiry_date, qty)
    select as_of_date, ${k.productId}, ${k.inventoryId}, ${k.locationId ?? 0}, ${k.lotNo ?? ''}, ${k.expiryDate ?? ''}, ${signedQty}
    from stock_snapshot_date where as_of_date >= ${day}
    on conflict (as_of_date, product_id, inventory_id, location_id, lot_no, expiry_date) do update set qty = stock_snapshot.qty + excluded.qty`.execute(trx);
  await sql`insert into stock_snapshot_total (as_of_date, product_id, inventory_id, qty)
    select as_of_date, ${k.productId}, ${k.inventoryId}, ${signedQty}
    from stock_snapshot_date where as_of_date >= ${day}
    on conflict (as_of_date, inventory_id, product_id) do update set qty = stock_snapshot_total.qty + excluded.qty`.execute(trx);
}

/**
 * Takes the snapshot of `date` (YYYY-MM-DD) from the ledger, unless it exists.
 * Keys that hold nothing that day are left out: a used-up lot adds nothing to
 * a balance, and keeping them made every month's snapshot larger than the last.
 * No posting may slip between the sum and the date's registration: SQLite
 * writes one at a time; on PostgreSQL the ledger is locked against writers
 * for the length of the sum.
 */
export async function takeSnapshot(db: Database, ledger: string, date: string): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    await lockAgainstWriters(trx, ledger);
    const exists = await trx.selectFrom('stock_snapshot_date').select('as_of_date').where('as_of_date', '=', date).executeTakeFirst();
    if (exists) return false;
    await sql`insert into stock_snapshot (as_of_date, product_id, inventory_id, location_id, lot_no, expiry_date, qty)
      select ${date}, product_id, inventory_id, coalesce(product_location_id, 0), coalesce(lot_no, ''), coalesce(cast(expiry_date as text), ''),
        sum(case when direction = 'in' then qty else -qty end)
      from ${sql.table(ledger)} where movement_date < ${businessDayEnd(date)}
      group by product_id, inventory_id, coalesce(product_location_id, 0), coalesce(lot_no, ''), coalesce(cast(expiry_date as text), '')
      having sum(case when direction = 'in' then qty else -qty end) <> 0`.execute(trx);
    await totalsFromDetail(trx, date);
    await trx.insertInto('stock_snapshot_date').values({ as_of_date: date }).execute();
    return true;
  });
}

/** The last day of each month from the ledger's first movement up to the month before `today`. */
export function monthEndsBefore(first: string, today: string): string[] {
  const out: string[] = [];
  let y = Number(first.slice(0, 4));
  let m = Number(first.slice(5, 7));
  for (;;) {
    const end = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    if (end >= today) return out;
    out.push(end);
    m++;
    if (m > 12) { m = 1; y++; }
  }
}

/**
 * Takes the missing month-end snapshots up to last month (at most `limit` per call, oldest first); `today` is a business date,
 * `ledger` the table of the movements (stock-entities.ts).
 */
export async function takeMissingSnapshots(db: Database, ledger: string, today: string, limit = 120): Promise<number> {
  const first = await db.kysely.selectFrom(ledger).select((eb) => eb.fn.min('movement_date').as('d')).executeTakeFirst();
  if (!first?.d) return 0;
  const firstDay = businessDayOf(first.d instanceof Date ? first.d : String(first.d));
  const have = new Set((await db.kysely.selectFrom('stock_snapshot_date').select('as_of_date').execute()).map((r) => String(r.as_of_date)));
  let taken = 0;
  for (const date of monthEndsBefore(firstDay, today)) {
    if (taken >= limit) break;
    if (have.has(date)) continue;
    if (await takeSnapshot(db, ledger, date)) taken++;
  }
  return taken;
}

/** The date of the newest snapshot, if any. */
export async function lastSnapshotDate(k: Kysely<any>): Promise<string | null> {
  const row = await k.selectFrom('stock_snapshot_date').select((eb) => eb.fn.max('as_of_date').as('d')).executeTakeFirst();
  return row?.d ? String(row.d) : null;
}

/** The latest snapshot date on or before `date`, if any. */
export async function snapshotOnOrBefore(k: Kysely<any>, date: string): Promise<string | null> {
  const row = await k.selectFrom('stock_snapshot_date').select('as_of_date').where('as_of_date', '<=', date).orderBy('as_of_date', 'desc').limit(1).executeTakeFirst();
  return row ? String(row.as_of_date) : null;
}
