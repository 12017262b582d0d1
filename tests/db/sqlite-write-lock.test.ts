/**
 * Two processes on one SQLite file (SERVER_WORKERS, or a tool beside the
 * server): a transaction that finds the write lock taken waits without
 * holding up its own process, whose other requests go on, and then commits.
 * Two connections in one process stand for the two processes here: with
 * SQLite's busy handler the waiting one would block the only thread, so the
 * holder could never finish and the waiter would fail with SQLITE_BUSY.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite, sqliteSettings } from '../../server/db/sqlite/sqlite-database.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { holdTransaction } from '../support/held-transaction.ts';

describe('a SQLite write lock held by another connection', () => {
  const opened: Database[] = [];
  let dir = '';
  afterEach(async () => {
    for (const d of opened.splice(0)) await d.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function open(busyTimeoutMs = 5000): Database {
    const db = openSqlite(join(dir, 'shared.sqlite'), { ...sqliteSettings({}), busyTimeoutMs });
    opened.push(db);
    return db;
  }

  it('is waited for while the waiting side still serves reads, then the write commits after the holder\'s', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const holder = open();
    const waiter = open();
    await sql`create table entry (id integer primary key, who text not null)`.execute(holder.kysely);

    const { release, done: holding } = await holdTransaction(holder, 'holder');

    const events: string[] = [];
    const waiting = waiter.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('entry').values({ who: 'waiter' }).execute();
    }).then(() => events.push('waiter committed'));

    // the waiting side's connection still answers (what is committed so far: nothing)
    const seen = await waiter.kysely.selectFrom('entry').selectAll().execute();
    events.push(`read ${seen.length} rows`);
    // and its event loop still turns, so the holder can finish
    await new Promise((r) => setTimeout(r, 30));
    events.push('holder released');
    release();
    await holding;
    await waiting;

    expect(events).toEqual(['read 0 rows', 'holder released', 'waiter committed']);
    const rows = await waiter.kysely.selectFrom('entry').select('who').orderBy('id').execute();
    expect(rows.map((r) => r.who)).toEqual(['holder', 'waiter']);
  });

  it('turns the busy handler off only while BEGIN is tried: inside and after a transaction it waits as configured', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const db = open(4321);
    const timeout = async (k: typeof db.kysely) => Object.values((await sql`pragma busy_timeout`.execute(k)).rows[0] as object)[0];
    expect(await timeout(db.kysely)).toBe(4321);
    await db.kysely.transaction().execute(async (trx) => {
      expect(await timeout(trx)).toBe(4321);
    });
    expect(await timeout(db.kysely)).toBe(4321);
  });

  it('lets several waiting transactions of one process commit in the order they came, reads going on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const holder = open();
    const waiter = open();
    await sql`create table entry (id integer primary key, who text not null)`.execute(holder.kysely);
    const { release, done: holding } = await holdTransaction(holder, 'holder');
    const order: string[] = [];
    const writes = ['first', 'second', 'third'].map((who) => waiter.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('entry').values({ who }).execute();
      // a waiting transaction that fails rolls back without taking the others down
      if (who === 'second') throw new Error('refused by its own rule');
    }).then(() => order.push(who), () => order.push(`${who} rolled back`)));
    for (let i = 0; i < 3; i++) expect(await waiter.kysely.selectFrom('entry').selectAll().execute()).toEqual([]);
    release();
    await holding;
    await Promise.all(writes);
    expect(order).toEqual(['first', 'second rolled back', 'third']);
    expect((await waiter.kysely.selectFrom('entry').select('who').orderBy('id').execute()).map((r) => r.who)).toEqual(['holder', 'first', 'third']);
  });

  it('gives up after the busy timeout with SQLITE_BUSY, writing nothing, and the next transaction of the process goes on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const holder = open();
    const waiter = open(150);
    await sql`create table entry (id integer primary key, who text not null)`.execute(holder.kysely);
    const { release, done: holding } = await holdTransaction(holder, 'holder');
    let ran = false;
    const started = Date.now();
    const first = waiter.kysely.transaction().execute(async (trx) => {
      ran = true;
      await trx.insertInto('entry').values({ who: 'too late' }).execute();
    });
    // queued behind the first: refused in its turn too, as the lock is still held
    const second = waiter.kysely.transaction().execute(async (trx) => { await trx.insertInto('entry').values({ who: 'also too late' }).execute(); });
    await expect(first).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    await expect(second).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(ran).toBe(false);
    release();
    await holding;
    await waiter.kysely.transaction().execute(async (trx) => { await trx.insertInto('entry').values({ who: 'after' }).execute(); });
    expect((await waiter.kysely.selectFrom('entry').select('who').orderBy('id').execute()).map((r) => r.who)).toEqual(['holder', 'after']);
  });

  it('takes the lock at once when nobody holds it, and rolls back as before', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const db = open();
    await sql`create table entry (id integer primary key, who text not null unique)`.execute(db.kysely);
    await db.kysely.transaction().execute(async (trx) => { await trx.insertInto('entry').values({ who: 'a' }).execute(); });
    await expect(db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('entry').values({ who: 'b' }).execute();
      await trx.insertInto('entry').values({ who: 'a' }).execute();
    })).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    expect((await db.kysely.selectFrom('entry').select('who').execute()).map((r) => r.who)).toEqual(['a']);
  });
  it('waits the same way for a write outside a transaction (a session saved at sign-in), reads going on', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const holder = open();
    const waiter = open();
    await sql`create table entry (id integer primary key, who text not null unique)`.execute(holder.kysely);
    const { release, done: holding } = await holdTransaction(holder, 'holder');
    const events: string[] = [];
    const plain = waiter.kysely.insertInto('entry').values({ who: 'plain' }).returning('id').executeTakeFirstOrThrow().then(() => events.push('plain write done'));
    // with SQLite's busy handler the insert would hold this thread until the time-out, and the holder could not finish
    events.push(`read ${(await waiter.kysely.selectFrom('entry').selectAll().execute()).length} rows`);
    await new Promise((r) => setTimeout(r, 30));
    events.push('holder released');
    release();
    await holding;
    await plain;
    expect(events).toEqual(['read 0 rows', 'holder released', 'plain write done']);
    // a failing plain write leaves nothing open: the next transaction begins
    await expect(waiter.kysely.insertInto('entry').values({ who: 'plain' }).execute()).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await waiter.kysely.updateTable('entry').set({ who: 'renamed' }).where('who', '=', 'plain').execute();
    await waiter.kysely.transaction().execute(async (trx) => { await trx.insertInto('entry').values({ who: 'after' }).execute(); });
    expect((await holder.kysely.selectFrom('entry').select('who').orderBy('id').execute()).map((r) => r.who)).toEqual(['holder', 'renamed', 'after']);
  });

  it('leaves a transaction a caller began with raw SQL on one connection as it is', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-lock-'));
    const db = open();
    await sql`create table entry (id integer primary key, who text not null)`.execute(db.kysely);
    await db.kysely.connection().execute(async (k) => {
      await sql`begin immediate`.execute(k);
      await sql`insert into entry (who) values ('inside')`.execute(k);
      await sql`rollback`.execute(k);
    });
    expect(await db.kysely.selectFrom('entry').selectAll().execute()).toEqual([]);
  });
});
