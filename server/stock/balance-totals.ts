import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { inBatches } from '../db/batches.ts';
import type { StockKey } from './stock-key.ts';

/**
 * `stock_balance_total`: the balance summed per product and inventory (qty
 * scaled by 10^4, value in satang), so "on hand now per product and
 * inventory" (stock_balance_all and its kin) reads a few hundred rows instead
 * of summing every lot's row on each call (227 ms on PostgreSQL at 380,000
 * keys). It is the sum of `stock_balance` at every commit: the one path that
 * changes a balance row (`addToBalances`, used by every posting, reversal,
 * transfer and adjustment) adds the same change here in its transaction, and
 * the bulk seed, which writes balances directly, rebuilds it for its products.
 *
 * On PostgreSQL the row of a product and inventory is locked from a posting's
 * write to its commit; the balance rows are all locked before it (in key
 * order), so two postings wait for each other here but cannot deadlock.
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
  // a database whose balances predate the totals (a total row is never deleted, so none at all
  // beside balance rows means never filled) gets them once, in one statement
  const hasTotals = await db.kysely.selectFrom('stock_balance_total').select('product_id').limit(1).executeTakeFirst();
  if (!hasTotals) await rebuildBalanceTotals(db.kysely, null);
}

/** Sets the totals of these products (all when null) from the balance rows, in the caller's transaction. */
export async function rebuildBalanceTotals(k: Kysely<any>, productIds: number[] | null): Promise<void> {
  const only = productIds === null ? sql`` : sql`where product_id in (${sql.join(productIds)})`;
  await sql`delete from stock_balance_total ${only}`.execute(k);
  await sql`insert into stock_balance_total (product_id, inventory_id, qty, value)
    select product_id, inventory_id, sum(qty), sum(value) from stock_balance ${only}
    group by product_id, inventory_id`.execute(k);
}

/** Adds balance changes (already written to stock_balance in this transaction) to their product and inventory totals. */
export async function addToBalanceTotals(trx: Kysely<any>, changes: { key: StockKey; qty: number; value: number }[]): Promise<void> {
  const sums = new Map<string, { product_id: number; inventory_id: number; qty: number; value: number }>();
  for (const c of changes) {
    const id = `${c.key.productId}|${c.key.inventoryId}`;
    const s = sums.get(id) ?? { product_id: c.key.productId, inventory_id: c.key.inventoryId, qty: 0, value: 0 };
    s.qty += c.qty;
    s.value += c.value;
    sums.set(id, s);
  }
  // in product and inventory order, so two postings lock their totals rows in the same order
  const rows = [...sums.values()].sort((a, b) => a.product_id - b.product_id || a.inventory_id - b.inventory_id);
  for (const batch of inBatches(rows, 4)) {
    await trx.insertInto('stock_balance_total').values(batch)
      .onConflict((oc) => oc.columns(['product_id', 'inventory_id']).doUpdateSet({ qty: sql`stock_balance_total.qty + excluded.qty`, value: sql`stock_balance_total.value + excluded.value` }))
      .execute();
  }
}
