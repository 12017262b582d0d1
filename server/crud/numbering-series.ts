import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { formatNumber, seriesKey } from '../../engine/documents/numbering-format.ts';
import type { Database } from '../db/dialect-adapter.ts';

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
 * gives its number back.
 */
export async function nextNumber(trx: Kysely<any>, entity: EntitySchema, now = new Date()): Promise<string> {
  const series = entity.numbering!;
  const row = await trx.insertInto('numbering_counter')
    .values({ series: seriesKey(entity.name, series, now), value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return formatNumber(series, now, Number(row.value));
}
