import { sql, type Kysely } from 'kysely';
import type { Database } from './dialect-adapter.ts';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Empties `tables` (given parents first) and fills them again with `fill`, all or nothing (a restore
 * or a migration's load), with foreign keys checked on the whole rather than row by row; `refuse`
 * makes the error when the loaded rows break a foreign key. Each dialect does this its own way:
 *
 * SQLite: foreign keys are off while tables are emptied and refilled (a RESTRICT key would refuse even
 * a deferred delete) and checked as a whole (`pragma foreign_key_check`) before commit; one
 * connection, so nothing else runs in between; `pragma foreign_keys` cannot change inside a
 * transaction, hence the transaction by hand.
 *
 * PostgreSQL: truncated in one statement; a superuser loads without firing foreign key triggers
 * (otherwise rows go in parents first, which `fill` does); identity columns then continue after the
 * highest id loaded (`withIds`: the tables with an integer `id`). SQLite's keys continue by themselves.
 */
export async function replaceTables(db: Database, t: {
  tables: string[]; withIds: string[]; fill: (k: Kysely<any>) => Promise<void>; refuse: (broken: number, firstTable: string) => Error;
}): Promise<void> {
  if (db.adapter.name === 'sqlite') {
    await db.kysely.connection().execute(async (k) => {
      await sql`pragma foreign_keys = off`.execute(k);
      try {
        await sql`begin immediate`.execute(k);
        try {
          for (const name of [...t.tables].reverse()) await sql.raw(`delete from ${q(name)}`).execute(k);
          await t.fill(k);
          const broken = await sql<{ table: string }>`pragma foreign_key_check`.execute(k);
          if (broken.rows.length) throw t.refuse(broken.rows.length, broken.rows[0]!.table);
          await sql`commit`.execute(k);
        } catch (err) {
          await sql`rollback`.execute(k).catch(() => undefined);
          throw err;
        }
      } finally {
        await sql`pragma foreign_keys = on`.execute(k);
      }
    });
    return;
  }
  await db.kysely.transaction().execute(async (trx) => {
    const su = await sql<{ s: boolean }>`select rolsuper as s from pg_roles where rolname = current_user`.execute(trx);
    if (su.rows[0]?.s) await sql`set local session_replication_role = replica`.execute(trx);
    if (t.tables.length) await sql.raw(`truncate table ${t.tables.map(q).join(', ')}`).execute(trx);
    await t.fill(trx);
    await continueIdentities(trx, t.withIds);
  });
}

/** Identity (and serial) columns continue after the highest id loaded (PostgreSQL's sequences do not follow explicit ids). */
async function continueIdentities(k: Kysely<any>, tables: string[]): Promise<void> {
  for (const name of tables) {
    await sql.raw(`select setval(s, greatest(coalesce((select max(id) from ${q(name)}), 0), 1), (select max(id) from ${q(name)}) is not null)
      from pg_get_serial_sequence('${name.replace(/'/g, "''")}', 'id') as s where s is not null`).execute(k);
  }
}

/**
 * A value read from a backup or another database, as this one's driver binds it into a column
 * (`json` tells a JSON column). PostgreSQL's driver binds a Date as a timestamp, and a JSON
 * column's number or boolean must be sent as JSON text (the driver would send the bare value, not
 * JSON); SQLite's driver takes no Date (ISO text is what it stores), and stores JSON values as they are.
 */
export function bindable(db: Database, v: Date | unknown, json: boolean): unknown {
  if (v instanceof Date) return db.adapter.returnsDates ? v : v.toISOString();
  if (json && typeof v !== 'string' && db.adapter.name === 'postgres') return JSON.stringify(v);
  return v;
}
