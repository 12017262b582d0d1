import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';

/** How many times each document was printed, whoever printed it. */
export async function ensurePrintCounterTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('print_counter').ifNotExists()
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('last_printed_at', 'text')
    .addPrimaryKeyConstraint('print_counter_pk', ['entity', 'record_id'])
    .execute();
}

export async function printCount(k: Kysely<any>, entity: string, id: number): Promise<number> {
  const row = await k.selectFrom('print_counter').select('count').where('entity', '=', entity).where('record_id', '=', id).executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/**
 * Counts one more print and answers the new count. The upsert takes the row's
 * lock (PostgreSQL) or the write lock (SQLite), and the limit is checked on the
 * counted value inside the same transaction: two parallel prints of the last
 * allowed copy cannot both pass, and a refused print is not counted.
 */
export async function countPrint(db: Database, entity: string, id: number, limit: number | null): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const row = await trx.insertInto('print_counter')
      .values({ entity, record_id: id, count: 1, last_printed_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['entity', 'record_id']).doUpdateSet({ count: sql`print_counter.count + 1`, last_printed_at: new Date().toISOString() }))
      .returning('count')
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    if (limit !== null && count > limit) {
      throw new AppError('FORBIDDEN', `This document was already printed ${count - 1} time(s); your role may print it at most ${limit} time(s)`);
    }
    return count;
  });
}
