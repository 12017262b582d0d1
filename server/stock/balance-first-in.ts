import { sql } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import type { On } from '../db/dialect-sql.ts';
import { businessDateSql, hasLedger } from './movement-days.ts';

/**
 * `stock_balance.first_in_day`: the business day (YYYY-MM-DD) of the key's
 * first movement in ('' = none yet), what stock_aging_report ages a key from.
 * Kept by `addToBalances` (the earlier of the row's and the posting's); before
 * it, the report joined every key to every receipt of the ledger to find it
 * (about 1 s at a million ledger rows, 21 s as SQLite planned it with a sort).
 * A database made before it gets the column and its values once, from the ledger.
 */
export async function ensureFirstInDay(db: Database, ledger: string): Promise<void> {
  if ((await db.adapter.columnNames(db.kysely, 'stock_balance')).includes('first_in_day')) return;
  const hasRows = await hasLedger(db, ledger);
  await db.kysely.transaction().execute(async (trx) => {
    await sql`alter table stock_balance add column first_in_day text not null default ''`.execute(trx);
    if (hasRows) await sql`update stock_balance set first_in_day = s.d
      from (${firstInOfLedger(db.adapter.name, ledger)}) s
      where stock_balance.product_id = s.product_id and stock_balance.inventory_id = s.inventory_id and stock_balance.location_id = s.location_id
        and stock_balance.lot_no = s.lot_no and stock_balance.expiry_date = s.expiry_date and stock_balance.container_id = s.container_id`.execute(trx);
  });
}

/** Per balance key, the business day of its first movement in, from the ledger (the key's columns as the balance stores them). */
export function firstInOfLedger(dialect: On, ledger: string) {
  return sql`select product_id, inventory_id, coalesce(product_location_id, 0) as location_id, coalesce(lot_no, '') as lot_no,
      coalesce(cast(expiry_date as text), '') as expiry_date, coalesce(product_container_id, 0) as container_id,
      ${businessDateSql(dialect, sql`min(movement_date)`)} as d
    from ${sql.table(ledger)} where direction = 'in' group by 1, 2, 3, 4, 5, 6`;
}
