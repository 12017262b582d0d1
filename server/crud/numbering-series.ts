import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { fieldTokens, formatNumber, numberMatcher, parseBusinessDate, seriesKey } from '../../engine/documents/numbering-format.ts';
import { businessDate, type BusinessDate } from '../../engine/documents/business-time.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, unknown>;

export async function ensureNumberingTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('numbering_counter').ifNotExists()
    .addColumn('series', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
}

/** The series a record's number belongs to: its `per` fields' values ("" for a series not split). */
export function seriesScope(entity: EntitySchema, record: Row = {}): string {
  return (entity.numbering!.per ?? []).map((f) => String(record[f] ?? '')).join('/');
}

/** The business date the record's number is dated by: its date field when the series has one and it is set, else today. */
export function numberingDate(entity: EntitySchema, record: Row = {}): BusinessDate {
  const field = entity.numbering!.dateField;
  return (field && parseBusinessDate(record[field])) || businessDate(businessClock.now(), businessClock.timeZone);
}

/** The text of the pattern's field tokens for this record: its own fields, or a field of the record a link names. */
async function tokenValues(trx: Kysely<any>, entity: EntitySchema, record: Row): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of fieldTokens(entity.numbering!.pattern)) {
    const [first, sub] = t.split('.') as [string, string | undefined];
    const value = record[first];
    if (!sub || value === null || value === undefined) { out[t] = value === null || value === undefined ? '' : String(value); continue; }
    const target = fieldOf(entity, first)!.entity!;
    const row = await trx.selectFrom(target).select(sub).where('id', '=', Number(value)).executeTakeFirst();
    out[t] = String(row?.[sub] ?? '');
  }
  return out;
}

/**
 * Draws the next number inside the caller's transaction. The upsert takes the
 * counter row's lock (PostgreSQL) or the write lock (SQLite, BEGIN IMMEDIATE),
 * so concurrent creations never get the same number; a rolled-back creation
 * gives its number back. The period is the record's date field when the series
 * names one, else the business's date (Asia/Bangkok by default), never UTC's.
 * A series split `per` fields (a company) has one counter per value.
 *
 * A series never hands out a number that already exists: when the drawn one
 * is taken (rows imported or seeded with their own numbers), the counter moves
 * past the highest number of that period, once, and draws again.
 */
export async function nextNumber(trx: Kysely<any>, entity: EntitySchema, record: Row = {}): Promise<string> {
  const series = entity.numbering!;
  const date = numberingDate(entity, record);
  const key = seriesKey(entity.name, series, date, seriesScope(entity, record));
  const values = await tokenValues(trx, entity, record);
  const row = await trx.insertInto('numbering_counter')
    .values({ series: key, value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  const drawn = formatNumber(series, date, Number(row.value), values);
  const taken = await trx.selectFrom(entity.name).select('id').where(series.field, '=', drawn).executeTakeFirst();
  if (!taken) return drawn;
  const m = numberMatcher(series, date, values);
  // a % or _ in the prefix only widens the candidates; the matcher reads back only this period's numbers
  const existing = await trx.selectFrom(entity.name).select(series.field).where(series.field, 'like', `${m.prefix}%`).execute();
  const highest = Math.max(Number(row.value), ...existing.map((r) => m.seqOf(String(r[series.field])) ?? 0));
  await trx.updateTable('numbering_counter').set({ value: highest + 1 }).where('series', '=', key).execute();
  return formatNumber(series, date, highest + 1, values);
}
