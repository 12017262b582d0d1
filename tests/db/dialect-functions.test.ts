/**
 * The dialect-adapter functions of server/db/ (issue 46 §3) do the same on both dialects, each in
 * its own statement shape: a posting's riding statements (one statement on PostgreSQL, in order on
 * SQLite) write everything and read the probe after what rides before; a generated key numbers rows;
 * the row lock is taken where there are row locks; a key column is added in place or by a copy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { openDatabase } from '../../server/db/database-factory.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { runRiding } from '../../server/db/riding-statements.ts';
import { addKeyColumn, daysBetween, generatedKey, integerDivision, readForUpdate } from '../../server/db/dialect-sql.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/test-databases.ts';

describe.each(testDialects())('dialect-adapter functions on %s', (dialect) => {
  let tdb: TestDatabase;
  let db: Database;
  let k: Kysely<any>;

  beforeAll(async () => {
    tdb = await createTestDatabase(dialect);
    db = openDatabase(tdb.url);
    k = db.kysely;
    await k.schema.createTable('bal').addColumn('key', 'integer', (c) => c.primaryKey()).addColumn('qty', 'integer', (c) => c.notNull()).execute();
    await k.schema.createTable('led').addColumn('id', 'integer', (c) => generatedKey(k, c)).addColumn('qty', 'integer', (c) => c.notNull()).execute();
    await k.schema.createTable('tot').addColumn('key', 'integer', (c) => c.primaryKey()).addColumn('qty', 'integer', (c) => c.notNull()).execute();
  });
  afterAll(async () => {
    await db?.close();
    await tdb?.drop();
  });

  it('a statement and what rides with it are all written; the probe reads what others committed, never what rides', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => ({ qty: i + 1 }));
    const done = await k.transaction().execute((trx) => runRiding(trx, {
      main: (qc) => qc.insertInto('bal').values([{ key: 1, qty: 5 }, { key: 2, qty: 7 }])
        .onConflict((oc) => oc.column('key').doUpdateSet({ qty: sql`bal.qty + excluded.qty` })).returning(['key', 'qty']),
      before: [{ rows, batch: 7, write: (qc, b) => qc.insertInto('led').values(b) }],
      after: [{ rows: [{ key: 9, qty: 12 }], batch: 1, write: (qc, b) => qc.insertInto('tot').values(b) }],
      probe: sql`(select count(*) from ${sql.table('led')})`,
    }));
    expect(done.rows.map((r) => [Number(r.key), Number(r.qty)]).sort()).toEqual([[1, 5], [2, 7]]);
    // a probe must not read a table that rides: PostgreSQL's sub-statements share one snapshot (it sees none of the 30),
    // SQLite wrote them before it (it sees all): so the posting probes the snapshot dates, which nothing rides into
    expect(Number(done.probe)).toBe(dialect === 'postgres' ? 0 : 30);
    expect(Number((await k.selectFrom('led').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(30);
    expect((await k.selectFrom('tot').selectAll().execute()).map((r) => Number(r.qty))).toEqual([12]);
    // generated keys: numbered 1..30 in order
    expect((await k.selectFrom('led').select('id').orderBy('id').execute()).map((r) => Number(r.id))).toEqual(rows.map((_, i) => i + 1));
  });

  it('nothing riding: the statement alone', async () => {
    const done = await runRiding(k, { main: (qc) => qc.insertInto('bal').values({ key: 3, qty: 1 }).returning(['key']) });
    expect(done).toEqual({ rows: [{ key: 3 }], probe: null, named: {} });
  });

  it('named riders (PostgreSQL): CTEs that refer to each other by name, read back once the main statement has written every row', async () => {
    const named = [{
      ctes: [
        ['n_e', (qc: Kysely<any>) => qc.insertInto('led').values({ qty: 40 }).returning('id')],
        ['n_t', (qc: Kysely<any>) => qc.insertInto('tot').values({ key: sql`(select id from n_e) + 1000`, qty: 1 })],
      ] as [string, (qc: Kysely<any>) => any][],
      // read after b: the count of bal rows b's upsert answered is all of them
      reads: { n_id: sql`(select id from n_e)`, n_b: sql`(select count(*) from b)` },
    }];
    const run = () => k.transaction().execute((trx) => runRiding(trx, {
      main: (qc) => qc.insertInto('bal').values([{ key: 11, qty: 1 }, { key: 12, qty: 1 }, { key: 13, qty: 1 }]).returning(['key']),
      named,
    }));
    if (dialect !== 'postgres') {
      await expect(run()).rejects.toThrow(/only on PostgreSQL/);
      return;
    }
    const done = await run();
    expect(done.rows.map((r) => Object.keys(r))).toEqual([['key'], ['key'], ['key']]);
    const id = Number(done.named.n_id);
    expect(Number(done.named.n_b)).toBe(3);
    expect((await k.selectFrom('tot').select('qty').where('key', '=', id + 1000).execute()).map((r) => Number(r.qty))).toEqual([1]);
  });

  it('integer division, days between, a read for update, a key column added', async () => {
    const { rows } = await sql<{ q: number; d: number }>`select ${integerDivision(dialect, sql`7`, sql`2`)} as q, ${daysBetween(dialect, sql`'2026-03-01'`, sql`'2026-02-27'`)} as d`.execute(k);
    expect([Number(rows[0]!.q), Number(rows[0]!.d)]).toEqual([3, 2]);
    const locked = await k.transaction().execute((trx) => readForUpdate(trx, trx.selectFrom('bal').select('qty').where('key', '=', 1)).execute());
    expect(locked.map((r) => Number(r.qty))).toEqual([5]);
    await sql`create table pair (a integer not null, v integer not null, constraint pair_pk primary key (a))`.execute(k);
    await k.insertInto('pair').values([{ a: 1, v: 10 }]).execute();
    await k.transaction().execute((trx) => addKeyColumn(trx, {
      table: 'pair', constraint: 'pair_pk', column: 'b', columnDdl: 'integer not null default 0', key: ['a', 'b'], columns: ['a', 'v'],
      create: (name) => sql`create table ${sql.table(name)} (a integer not null, v integer not null, b integer not null default 0, constraint pair_pk primary key (a, b))`,
    }));
    await k.insertInto('pair').values({ a: 1, b: 1, v: 11 }).execute();
    expect((await k.selectFrom('pair').select(['a', 'b', 'v']).orderBy('b').execute()).map((r) => [Number(r.a), Number(r.b), Number(r.v)])).toEqual([[1, 0, 10], [1, 1, 11]]);
    await expect(k.insertInto('pair').values({ a: 1, b: 1, v: 12 }).execute()).rejects.toThrow();
  });
});
