import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import type { StockKey } from './stock-key.ts';

/**
 * `stock_balance_total`: the balance summed per product and inventory (qty
 * scaled by 10^4, value in satang), so "on hand now per product and
 * inventory" (stock_balance_all and its kin) reads a few hundred rows instead
 * of summing every lot's row on each call (227 ms on PostgreSQL at 380,000
 * keys); `stock_lot_total` the same per lot and expiry date (what the
 * shelf-life and expiration reports list). Each is the sum of `stock_balance`
 * at every commit: the one path that
 * changes a balance row (`addToBalances`, used by every posting, reversal,
 * transfer and adjustment) adds the same change here in its transaction, and
 * the bulk seed, which writes balances directly, rebuilds it for its products.
 *
 * On PostgreSQL the totals rows are locked from a posting's write to its
 * commit; the balance rows are all locked before them, and each table's rows
 * in key order, so two postings wait for each other here but cannot deadlock.
 */
export async function ensureBalanceTotals(db: Database): Promise<void> {
  await db.kysely.schema.createTable('stock_balance_total').ifNotExists()
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('inventory_id', 'integer', (c) => c.notNull())
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_balance_total_pk', ['product_id', 'inventory_id'])
    .execute();
  await db.kysely.schema.createIndex('stock_balance_total_inventory').ifNotExists().on('stock_balance_total').columns(['inventory_id', 'product_id']).execute();
  // the same per lot and expiry date (locations and containers summed): what the shelf-life and
  // expiration reports list, one row per lot, without grouping 150,000 balance rows on every call
  await db.kysely.schema.createTable('stock_lot_total').ifNotExists()
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('inventory_id', 'integer', (c) => c.notNull())
    .addColumn('lot_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_lot_total_pk', ['product_id', 'inventory_id', 'lot_no', 'expiry_date'])
    .execute();
  await db.kysely.schema.createIndex('stock_lot_total_expiry').ifNotExists().on('stock_lot_total').columns(['expiry_date', 'product_id', 'inventory_id']).execute();
  // a database whose balances predate the totals (a total row is never deleted, so none at all
  // beside balance rows means never filled) gets them once, in one statement each
  for (const table of TOTALS) {
    const has = await db.kysely.selectFrom(table.name).select('product_id').limit(1).executeTakeFirst();
    if (!has) await rebuildTable(db.kysely, table, null);
  }
}

/** The tables summed from stock_balance, each by its key. */
const TOTALS = [
  { name: 'stock_balance_total', key: ['product_id', 'inventory_id'] },
  { name: 'stock_lot_total', key: ['product_id', 'inventory_id', 'lot_no', 'expiry_date'] },
] as const;
type Totals = (typeof TOTALS)[number];

async function rebuildTable(k: Kysely<any>, table: Totals, productIds: number[] | null): Promise<void> {
  const only = productIds === null ? sql`` : sql`where product_id in (${sql.join(productIds)})`;
  const cols = sql.join(table.key.map((c) => sql.ref(c)));
  await sql`delete from ${sql.table(table.name)} ${only}`.execute(k);
  await sql`insert into ${sql.table(table.name)} (${cols}, qty, value)
    select ${cols}, sum(qty), sum(value) from stock_balance ${only} group by ${cols}`.execute(k);
}

/** Sets the totals of these products (all when null) from the balance rows, in the caller's transaction. */
export async function rebuildBalanceTotals(k: Kysely<any>, productIds: number[] | null): Promise<void> {
  for (const table of TOTALS) await rebuildTable(k, table, productIds);
}

/** Each totals table's rows for these balance changes, summed per its key and in key order (so two postings lock them in one order). */
export function totalsRows(changes: { key: StockKey; qty: number; value: number }[]): { table: string; key: readonly string[]; rows: Record<string, string | number>[] }[] {
  return TOTALS.map((table) => {
    const sums = new Map<string, Record<string, string | number>>();
    for (const c of changes) {
      const row: Record<string, string | number> = { product_id: c.key.productId, inventory_id: c.key.inventoryId, lot_no: c.key.lotNo ?? '', expiry_date: c.key.expiryDate ?? '' };
      const keyed = Object.fromEntries(table.key.map((col) => [col, row[col]!]));
      const id = JSON.stringify(keyed);
      const s = sums.get(id) ?? { ...keyed, qty: 0, value: 0 };
      s.qty = Number(s.qty) + c.qty;
      s.value = Number(s.value) + c.value;
      sums.set(id, s);
    }
    const rows = [...sums.values()].sort((a, b) => {
      for (const col of table.key) if (a[col] !== b[col]) return a[col]! < b[col]! ? -1 : 1;
      return 0;
    });
    return { table: table.name, key: table.key, rows };
  });
}

/** `INSERT … ON CONFLICT DO UPDATE` adding the rows to a totals table (written with the balances: addToBalances, runRiding). */
export function totalsUpsert(qc: Pick<Kysely<any>, 'insertInto'>, t: { table: string; key: readonly string[] }, rows: Record<string, string | number>[]) {
  return qc.insertInto(t.table).values(rows)
    .onConflict((oc) => oc.columns([...t.key]).doUpdateSet({ qty: sql`${sql.ref(`${t.table}.qty`)} + excluded.qty`, value: sql`${sql.ref(`${t.table}.value`)} + excluded.value` }));
}
