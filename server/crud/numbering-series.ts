import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { formatNumber, numberMatcher, seriesKey } from '../../engine/documents/numbering-format.ts';
import { businessDate } from '../../engine/documents/business-time.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { businessClock } from '../documents/business-clock.ts';

export async function ensureNumberingTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('numbering_counter').ifNotExists()
    .addColumn('series', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
}

/**
 * Draws the next number inside the caller's transaction. The upsert takes the
 * counter row's lock (PostgreSQL) or the write lock (SQLite, BEGIN IMMEDIATE),
 * so concurrent creations never get the same number; a rolled-back creation
 * gives its number back. The period is the business's date (Asia/Bangkok by
 * default), never UTC's.
 *
 * A series never hands out a number that already exists: when the drawn one
 * is taken (rows imported or seeded with their own numbers), the counter moves
 * past the highest number of that period, once, and draws again.
 */
export async function nextNumber(trx: Kysely<any>, entity: EntitySchema): Promise<string> {
  const series = entity.numbering!;
  const date = businessDate(businessClock.now(), businessClock.timeZone);
  const key = seriesKey(entity.name, series, date);
  const row = await trx.insertInto('numbering_counter')
    .values({ series: key, value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  const drawn = formatNumber(series, date, Number(row.value));
  const taken = await trx.selectFrom(entity.name).select('id').where(series.field, '=', drawn).executeTakeFirst();
  if (!taken) return drawn;
  const m = numberMatcher(series, date);
  // a % or _ in the prefix only widens the candidates; the matcher reads back only this period's numbers
  const existing = await trx.selectFrom(entity.name).select(series.field).where(series.field, 'like', `${m.prefix}%`).execute();
  const highest = Math.max(Number(row.value), ...existing.map((r) => m.seqOf(String(r[series.field])) ?? 0));
  await trx.updateTable('numbering_counter').set({ value: highest + 1 }).where('series', '=', key).execute();
  return formatNumber(series, date, highest + 1);
}
