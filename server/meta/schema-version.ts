import { sql, type Kysely } from 'kysely';

/**
 * The one version counter of runtime schema changes (page settings and custom
 * fields alike), in schema_state: every instance reloads when it sees a newer one.
 */
export const VERSION_KEY = 'override_version';

/**
 * Moves the version by one. The update is the transaction's first write, so
 * concurrent saves queue on the version row (PostgreSQL row lock, SQLite's
 * BEGIN IMMEDIATE) and each gets its own number: a save can never be lost
 * behind another that reused its version.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function bumpVersion(trx: Kysely<any>): Promise<number> {
  const updated = await trx.updateTable('schema_state')
    .set({ value: sql<string>`cast(cast(value as integer) + 1 as text)` })
    .where('key', '=', VERSION_KEY).executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await trx.insertInto('schema_state').values({ key: VERSION_KEY, value: '1' }).execute();
    return 1;
  }
  const row = await trx.selectFrom('schema_state').select('value').where('key', '=', VERSION_KEY).executeTakeFirstOrThrow();
  return Number(row.value);
}
