/**
 * PostgreSQL, two pools per instance (server/db/postgres/split-pool-driver.ts):
 * a statement outside a transaction never waits for a connection that a
 * transaction holds, however long that transaction waits for a row lock;
 * transactions take their connections from their own pool, one after the
 * other when it is full. With one pool of one connection the first test
 * would time out: the read would wait for the open transaction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openPostgres } from '../../server/db/postgres/postgres-database.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { holdTransaction } from '../support/held-transaction.ts';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

describe.skipIf(!hasPostgres)('PostgreSQL pools: transactions and statements apart', () => {
  let target: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    target = await createTestDatabase('postgres');
    // one connection each: what a busy instance looks like when every connection of a pool is taken
    db = openPostgres(target.url, { transactions: 1, statements: 1 });
    await sql`create table entry (id serial primary key, who text not null)`.execute(db.kysely);
  });
  afterAll(async () => {
    await db?.close();
    await target?.drop();
  });

  it('answers a read while every transaction connection is held', async () => {
    const t = await holdTransaction(db, 'holder');
    try {
      const rows = await db.kysely.selectFrom('entry').select('who').execute();
      // read committed: the open transaction's row is not seen yet, but the read did not wait for it
      expect(rows).toEqual([]);
      const { rows: [activity] } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where datname = current_database() and state = 'idle in transaction'`.execute(db.kysely);
      expect(activity!.n).toBe(1);
    } finally {
      t.release();
      await t.done;
    }
    expect((await db.kysely.selectFrom('entry').select('who').execute()).map((r) => r.who)).toEqual(['holder']);
  });

  it('lets a second transaction wait for the first one\'s connection, then run', async () => {
    const first = await holdTransaction(db, 'first');
    let secondDone = false;
    const second = db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('entry').values({ who: 'second' }).execute();
    }).then(() => { secondDone = true; });
    await new Promise((r) => setTimeout(r, 150));
    expect(secondDone).toBe(false);
    first.release();
    await first.done;
    await second;
    const who = (await db.kysely.selectFrom('entry').select('who').where('who', 'in', ['first', 'second']).orderBy('id').execute()).map((r) => r.who);
    expect(who).toEqual(['first', 'second']);
  });

  it('rolls back a failed transaction and leaves both pools usable', async () => {
    await expect(db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('entry').values({ who: 'rolled back' }).execute();
      throw new Error('refused');
    })).rejects.toThrow('refused');
    expect(await db.kysely.selectFrom('entry').select('id').where('who', '=', 'rolled back').execute()).toEqual([]);
    await db.kysely.transaction().execute(async (trx) => { await trx.insertInto('entry').values({ who: 'after' }).execute(); });
    expect(await db.kysely.selectFrom('entry').select('who').where('who', '=', 'after').execute()).toHaveLength(1);
  });

  it('keeps one client for a connection, also when its first statements run at once, and begins a transaction on it', async () => {
    const pids = await db.kysely.connection().execute(async (c) => {
      const both = await Promise.all([
        sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(c),
        sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(c),
      ]);
      const inTrx = await c.transaction().execute(async (trx) => {
        await trx.insertInto('entry').values({ who: 'via connection' }).execute();
        return (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      });
      return [...both.map((r) => r.rows[0]!.pid), inTrx];
    });
    expect(new Set(pids).size).toBe(1);
    expect(await db.kysely.selectFrom('entry').select('who').where('who', '=', 'via connection').execute()).toHaveLength(1);
  });

  it('answers a refused connection with the error, holds nothing, and closes', async () => {
    const nowhere = openPostgres('postgres://127.0.0.1:1/nowhere', { transactions: 1, statements: 1 });
    await expect(sql`select 1`.execute(nowhere.kysely)).rejects.toThrow(/ECONNREFUSED|connect/);
    await expect(nowhere.kysely.transaction().execute(async () => 'never')).rejects.toThrow(/ECONNREFUSED|connect/);
    // the pools' single connections were given back: a second try fails the same way instead of waiting for them
    await expect(sql`select 1`.execute(nowhere.kysely)).rejects.toThrow(/ECONNREFUSED|connect/);
    await nowhere.close();
  });

  it('refuses a pool size that is not a positive whole number of connections', async () => {
    const before = process.env.PG_READ_POOL_SIZE;
    process.env.PG_READ_POOL_SIZE = 'ten';
    try {
      expect(() => openPostgres(target.url)).toThrow(/PG_READ_POOL_SIZE must be a positive whole number/);
    } finally {
      if (before === undefined) delete process.env.PG_READ_POOL_SIZE; else process.env.PG_READ_POOL_SIZE = before;
    }
  });
});
