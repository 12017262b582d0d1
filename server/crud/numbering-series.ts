import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { fieldTokens, formatNumber, numberMatcher, numberPieces, parseBusinessDate, seriesKey } from '../../engine/documents/numbering-format.ts';
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

/**
 * The text of the pattern's field tokens for this record: its own fields, or a field of the record a link names.
 * Exported for a caller that reads them before its transaction locks hot rows (a posting's entry, journal-writer.ts).
 */
export async function tokenValues(trx: Kysely<any>, entity: EntitySchema, record: Row): Promise<Record<string, string>> {
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

/** The counter of the record's series moved on by one, under its row lock (PostgreSQL) or the write lock (SQLite). */
async function draw(trx: Kysely<any>, entity: EntitySchema, record: Row, tokens?: Record<string, string>) {
  const series = entity.numbering!;
  const date = numberingDate(entity, record);
  const key = seriesKey(entity.name, series, date, seriesScope(entity, record));
  // read before the counter is locked: the lock is held until commit
  const values = tokens ?? await tokenValues(trx, entity, record);
  const row = await trx.insertInto('numbering_counter')
    .values({ series: key, value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return { key, date, values, value: Number(row.value), drawn: formatNumber(series, date, Number(row.value), values) };
}

/** The drawn number was taken (rows imported or seeded with their own numbers): the counter moves past the highest of that period, once. */
async function pastTaken(trx: Kysely<any>, entity: EntitySchema, d: Awaited<ReturnType<typeof draw>>): Promise<string> {
  const series = entity.numbering!;
  const m = numberMatcher(series, d.date, d.values);
  // a % or _ in the prefix only widens the candidates; the matcher reads back only this period's numbers
  const existing = await trx.selectFrom(entity.name).select(series.field).where(series.field, 'like', `${m.prefix}%`).execute();
  const highest = Math.max(d.value, ...existing.map((r) => m.seqOf(String(r[series.field])) ?? 0));
  await trx.updateTable('numbering_counter').set({ value: highest + 1 }).where('series', '=', d.key).execute();
  return formatNumber(series, d.date, highest + 1, d.values);
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
 * past the highest number of that period, once, and draws again. `tokens`: the
 * pattern's field values as tokenValues read them earlier in the transaction.
 */
export async function nextNumber(trx: Kysely<any>, entity: EntitySchema, record: Row = {}, tokens?: Record<string, string>): Promise<string> {
  const d = await draw(trx, entity, record, tokens);
  const taken = await trx.selectFrom(entity.name).select('id').where(entity.numbering!.field, '=', d.drawn).executeTakeFirst();
  return taken ? pastTaken(trx, entity, d) : d.drawn;
}

/**
 * Draws the next number for row `id`, written without one in this transaction, and stores it: what
 * `nextNumber` answers, in two statements while the counter is locked (the draw, and a store that
 * also asks whether the number is taken) instead of three. For a create's last steps, so writes of
 * the same series queue for the counter only for those and the commit (entity-writer.ts).
 */
export async function assignNumber(trx: Kysely<any>, entity: EntitySchema, id: number, record: Row, tokens?: Record<string, string>): Promise<string> {
  const field = entity.numbering!.field;
  const d = await draw(trx, entity, record, tokens);
  const stored = await trx.updateTable(entity.name).set({ [field]: d.drawn }).where('id', '=', id)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom(`${entity.name} as taken`).select('taken.id').where(`taken.${field}`, '=', d.drawn))))
    .executeTakeFirst();
  if (Number(stored.numUpdatedRows) === 1) return d.drawn;
  const no = await pastTaken(trx, entity, d);
  await trx.updateTable(entity.name).set({ [field]: no }).where('id', '=', id).execute();
  return no;
}

/**
 * `assignNumber`'s draw as parts of one statement (PostgreSQL), for a write that holds rows others wait for and
 * so must not spend a round trip on its number (a posting's journal entry, journal-writer.ts):
 * - `counter(qc)`: the counter moved on, answering `value` (a CTE);
 * - `number(value)`: the number made from that value in SQL as `formatNumber` makes it, or null when a row
 *   already has it (imported or seeded with its own numbers);
 * - `pastTaken(id, value)`: then, the number past the taken ones, stored on row `id` (statements of their own: rare).
 */
export function numberInStatement(entity: EntitySchema, record: Row, tokens: Record<string, string>) {
  const series = entity.numbering!;
  const date = numberingDate(entity, record);
  const key = seriesKey(entity.name, series, date, seriesScope(entity, record));
  const { text, widths } = numberPieces(series, date, tokens);
  const made = (value: RawBuilder<unknown>): RawBuilder<string> => {
    const seq = sql`cast(${value} as text)`;
    const parts: RawBuilder<unknown>[] = [sql`cast(${text[0]} as text)`];
    widths.forEach((w, i) => parts.push(sql`(case when length(${seq}) >= ${sql.lit(w)} then ${seq} else lpad(${seq}, ${sql.lit(w)}, '0') end)`, sql`cast(${text[i + 1]} as text)`));
    return sql<string>`(${sql.join(parts, sql` || `)})`;
  };
  const field = series.field;
  return {
    counter: (qc: Kysely<any>) => qc.insertInto('numbering_counter').values({ series: key, value: 1 })
      .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` })).returning('value'),
    number: (value: RawBuilder<unknown>): RawBuilder<string | null> => {
      const no = made(value);
      return sql<string | null>`(case when exists (select 1 from ${sql.table(entity.name)} as taken where taken.${sql.ref(field)} = ${no}) then null else ${no} end)`;
    },
    pastTaken: async (trx: Kysely<any>, id: number, value: number): Promise<string> => {
      const no = await pastTaken(trx, entity, { key, date, values: tokens, value, drawn: formatNumber(series, date, value, tokens) });
      await trx.updateTable(entity.name).set({ [field]: no }).where('id', '=', id).execute();
      return no;
    },
  };
}
