import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { formatNumber, numberShape, seriesKey, sequenceOf } from '../../engine/documents/numbering-format.ts';
import { businessDate, type BusinessDate } from '../../engine/documents/business-time.ts';
import { businessTimeZone } from '../config/business-time-zone.ts';
import { escapeLike, type Database } from '../db/dialect-adapter.ts';

export async function ensureNumberingTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('numbering_counter').ifNotExists()
    .addColumn('series', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute();
}

export interface NextNumberOptions {
  /** The moment of creation; the business day it falls on picks the period. */
  now?: Date;
  /** Defaults to the configured business time zone (BUSINESS_TIME_ZONE, Asia/Bangkok). */
  timeZone?: string;
}

type Row = Record<string, unknown>;

/**
 * Draws the next number inside the caller's transaction. The upsert takes the
 * counter row's lock (PostgreSQL) or the write lock (SQLite, BEGIN IMMEDIATE),
 * so concurrent creations never get the same number; a rolled-back creation
 * gives its number back (tax-invoice series stay gap-free).
 *
 * A series never hands out a number already in the table: when its counter is
 * new (numbers typed by hand or loaded as demo data before it existed) or the
 * drawn number is taken, the counter moves past the highest number of the same
 * period, in the same transaction and under the same lock.
 */
export async function nextNumber(trx: Kysely<any>, entity: EntitySchema, row: Row, opts: NextNumberOptions = {}): Promise<string> {
  const series = entity.numbering!;
  const day = businessDate(opts.now ?? new Date(), opts.timeZone ?? businessTimeZone());
  const scope = series.perField ? (row[series.perField] ?? null) : undefined;
  const key = seriesKey(entity.name, series, day, scope);
  const drawn = await trx.insertInto('numbering_counter')
    .values({ series: key, value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  let seq = Number(drawn.value);
  if (seq === 1 || (await numberTaken(trx, entity, formatNumber(series, day, seq), scope))) {
    const highest = await highestUsed(trx, entity, day, scope);
    if (highest >= seq) {
      seq = highest + 1;
      await trx.updateTable('numbering_counter').set({ value: seq }).where('series', '=', key).execute();
    }
  }
  return formatNumber(series, day, seq);
}

/** Rows of the same series: with perField, only rows of that field value (null matches null). */
function inScope(entity: EntitySchema, scope: unknown) {
  const per = entity.numbering!.perField;
  return (q: any) => (per === undefined ? q : scope === null ? q.where(per, 'is', null) : q.where(per, '=', scope));
}

async function numberTaken(trx: Kysely<any>, entity: EntitySchema, value: string, scope: unknown): Promise<boolean> {
  const field = entity.numbering!.field;
  const q = inScope(entity, scope)(trx.selectFrom(entity.name).select('id').where(field, '=', value));
  return !!(await q.limit(1).executeTakeFirst());
}

/**
 * The highest running number of this period already stored. Longer numbers are larger
 * (the sequence outgrows its padding: 10000 after 9999), so rows are read by length,
 * then text; LIKE may match loosely (case, other shapes), so each candidate is parsed.
 */
async function highestUsed(trx: Kysely<any>, entity: EntitySchema, day: BusinessDate, scope: unknown): Promise<number> {
  const series = entity.numbering!;
  const { head, tail } = numberShape(series, day);
  const like = `${escapeLike(head)}%${escapeLike(tail)}`;
  const q = inScope(entity, scope)(trx.selectFrom(entity.name).select(series.field).where(sql<boolean>`${sql.ref(series.field)} like ${like} escape '\\'`));
  const rows: Row[] = await q.orderBy(sql`length(${sql.ref(series.field)})`, 'desc').orderBy(series.field, 'desc').limit(50).execute();
  for (const r of rows) {
    const n = sequenceOf(series, day, String(r[series.field]));
    if (n !== null) return n;
  }
  return 0;
}
