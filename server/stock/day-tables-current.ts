import { sql } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { hasLedger, rebuildMovementDays } from './movement-days.ts';
import { firstInOfLedger } from './balance-first-in.ts';

/**
 * The day tables (`stock_movement_day`, `stock_balance.first_in_day`) hold business days of one
 * BUSINESS_TIME_ZONE, kept by each posting. They go stale when the zone changes, or when a restore brings a
 * ledger from before them (the restored ledger beside the day rows of the one it replaced, first_in_day
 * empty). At start they are rebuilt from the ledger when the zone they were built in (`stock_day_state`) is
 * not today's, when the day rows do not count the ledger's movements, or when a key in stock has no first day.
 */
export async function ensureDayTablesCurrent(db: Database, ledger: string): Promise<void> {
  if (!(await hasLedger(db, ledger))) return;
  const k = db.kysely;
  await k.schema.createTable('stock_day_state').ifNotExists().addColumn('zone', 'text', (c) => c.notNull()).execute();
  const zone = businessClock.timeZone;
  const stored = (await k.selectFrom('stock_day_state').select('zone').executeTakeFirst())?.zone as string | undefined;
  const moved = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(ledger)}`.execute(k)).rows[0]!.n);
  const days = Number((await sql<{ n: number }>`select coalesce(sum(movement_count), 0) as n from stock_movement_day`.execute(k)).rows[0]!.n);
  const undated = await sql`select 1 as x from stock_balance where first_in_day = '' and qty > 0 limit 1`.execute(k);
  if (stored === zone && moved === days && !undated.rows.length) return;
  await k.transaction().execute(async (trx) => {
    await rebuildMovementDays(trx, db.adapter.name, ledger);
    await sql`update stock_balance set first_in_day = ''`.execute(trx);
    await sql`update stock_balance set first_in_day = s.d
      from (${firstInOfLedger(db.adapter.name, ledger)}) s
      where stock_balance.product_id = s.product_id and stock_balance.inventory_id = s.inventory_id and stock_balance.location_id = s.location_id
        and stock_balance.lot_no = s.lot_no and stock_balance.expiry_date = s.expiry_date and stock_balance.container_id = s.container_id`.execute(trx);
    await trx.deleteFrom('stock_day_state').execute();
    await trx.insertInto('stock_day_state').values({ zone }).execute();
  });
}
