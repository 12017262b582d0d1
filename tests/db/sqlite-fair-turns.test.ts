/**
 * The one SQLite connection is shared first come, first served
 * (server/db/sqlite/sqlite-driver.ts FairMutex): under load no request may
 * be overtaken again and again by later ones, and a transaction keeps the
 * connection to itself until it ends.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite } from '../../server/db/sqlite/sqlite-database.ts';
import { FairMutex } from '../../server/db/sqlite/sqlite-driver.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('FairMutex', () => {
  it('hands the lock to waiters in the order they asked, and a newcomer right after a release waits its turn', async () => {
    const m = new FairMutex();
    const order: string[] = [];
    await m.lock();
    const waiters = ['a', 'b', 'c'].map((name) => m.lock().then(() => { order.push(name); }));
    expect(m.queued).toBe(3);
    m.unlock();
    // asked in the same turn as the release: with a wake-everyone mutex this one would get in before a, b and c
    const late = m.lock().then(() => { order.push('late'); });
    await Promise.resolve();
    for (let i = 0; i < 4; i++) {
      await tick();
      m.unlock();
    }
    await Promise.all([...waiters, late]);
    expect(order).toEqual(['a', 'b', 'c', 'late']);
  });

  it('is free again once every holder released it', async () => {
    const m = new FairMutex();
    await m.lock();
    m.unlock();
    let got = false;
    await m.lock().then(() => { got = true; });
    expect(got).toBe(true);
    expect(m.queued).toBe(0);
  });
});

describe('the SQLite connection under many callers', () => {
  let dir: string;
  let db: Database;
  afterEach(async () => {
    await db?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('queries wait for a transaction in progress, then run in the order they were sent', async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-fair-'));
    db = openSqlite(join(dir, 'fair.sqlite'));
    const k = db.kysely;
    await sql`create table t (id integer primary key, v integer)`.execute(k);
    const seen: string[] = [];
    const trx = k.transaction().execute(async (tx) => {
      await sql`insert into t (v) values (1)`.execute(tx);
      await tick(); // the transaction holds the connection across real waiting
      await sql`insert into t (v) values (2)`.execute(tx);
      seen.push('transaction');
    });
    await Promise.resolve();
    const reads = Array.from({ length: 20 }, (_, i) => sql<{ n: number }>`select count(*) as n from t`.execute(k).then((r) => { seen.push(`read ${i}: ${r.rows[0]!.n}`); }));
    await Promise.all([trx, ...reads]);
    // no read saw the transaction half done, and they ran in the order sent
    expect(seen).toEqual(['transaction', ...Array.from({ length: 20 }, (_, i) => `read ${i}: 2`)]);
  });
});
