/**
 * Issue 45 §3: the database never waits forever. On PostgreSQL a write waiting past PG_LOCK_TIMEOUT_MS for a
 * lock another transaction holds, or a statement past PG_STATEMENT_TIMEOUT_MS, answers 503 DATABASE_TIMEOUT
 * (Thai text), writes nothing, and the server answers the next request; on SQLite a write waiting past
 * SQLITE_BUSY_TIMEOUT_MS for another process's write lock answers 503 DATABASE_BUSY likewise.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { label, tempSchemasDir } from '../support/temp-schemas.ts';
import { statementLimits } from '../../server/db/postgres/postgres-database.ts';

const widget = { name: 'dt_widget', label: label('Widget'), kind: 'master', titleField: 'name', fields: { name: { type: 'string', label: label('Name'), required: true } } };
const THAI = /[\u0E00-\u0E7F]/;

describe('PostgreSQL limits from the environment', () => {
  it('default to 30 s and 10 s, 0 turns one off, anything else is refused naming the variable', () => {
    expect(statementLimits({})).toEqual({ statement_timeout: 30_000, lock_timeout: 10_000 });
    expect(statementLimits({ PG_STATEMENT_TIMEOUT_MS: '0', PG_LOCK_TIMEOUT_MS: '250' })).toEqual({ lock_timeout: 250 });
    expect(() => statementLimits({ PG_LOCK_TIMEOUT_MS: '10s' })).toThrow(/PG_LOCK_TIMEOUT_MS/);
  });
});

describe.each(testDialects())('database timeouts on %s', (dialect) => {
  const schemas = tempSchemasDir([widget], true);
  let t: TestApp;
  const post = (name: string) => t.app.inject({ method: 'POST', url: '/api/dt_widget', headers: { ...t.headers, 'accept-language': 'th' }, payload: { name } });
  const count = async () => Number((await t.db.kysely.selectFrom('dt_widget').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    vi.stubEnv('PG_LOCK_TIMEOUT_MS', '300');
    vi.stubEnv('PG_STATEMENT_TIMEOUT_MS', '1500');
    vi.stubEnv('SQLITE_BUSY_TIMEOUT_MS', '300');
    t = await createTestApp(dialect, schemas.dir);
    vi.unstubAllEnvs();
  });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  it('a write waiting for a lock another transaction holds: 503 in Thai, nothing written, and the server carries on', async () => {
    const before = await count();
    let res;
    if (dialect === 'postgres') {
      const other = new pg.Client({ connectionString: t.testDb.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('lock table dt_widget in access exclusive mode');
        res = await post('waits for the lock');
      } finally {
        await other.query('rollback');
        await other.end();
      }
    } else {
      const other = new BetterSqlite3(t.testDb.url);
      try {
        other.prepare('begin immediate').run();
        res = await post('waits for the lock');
      } finally {
        other.prepare('rollback').run();
        other.close();
      }
    }
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.code).toBe(dialect === 'postgres' ? 'DATABASE_TIMEOUT' : 'DATABASE_BUSY');
    expect(res.json().error.message).toMatch(THAI);
    expect(await count()).toBe(before);
    const next = await post('after the lock');
    expect(next.statusCode, next.body).toBe(201);
    expect(await count()).toBe(before + 1);
  });

  it.runIf(dialect === 'postgres')('a deadlock with another transaction: 503 DATABASE_BUSY in Thai, its transaction rolled back, the other goes on', async () => {
    const [a, b] = [(await post('row a')).json().data.id as number, (await post('row b')).json().data.id as number];
    const before = await count();
    let holdsA!: () => void;
    const holding = new Promise<void>((resolve) => { holdsA = resolve; });
    // a write that takes row a, then row b (a posting's rows), while another transaction holds b and then asks for a
    const spy = vi.spyOn(t.service, 'create').mockImplementation(async () => t.db.kysely.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '10s'`.execute(trx);
      await trx.insertInto('dt_widget').values({ name: 'half written', created_at: new Date().toISOString(), updated_at: new Date().toISOString() }).execute();
      await trx.updateTable('dt_widget').set({ name: 'a by the request' }).where('id', '=', a).execute();
      holdsA();
      await trx.updateTable('dt_widget').set({ name: 'b by the request' }).where('id', '=', b).execute();
      return {};
    }));
    const other = new pg.Client({ connectionString: t.testDb.url });
    await other.connect();
    let res;
    try {
      await other.query('begin');
      await other.query('update dt_widget set name = $1 where id = $2', ['b by the other', b]);
      const answer = post('deadlocks');
      await holding;
      // the request waits for b first, so its deadlock check (1 s later) is the first to find the cycle: it is the one ended
      await expect.poll(async () => Number((await other.query('select count(*) as n from pg_locks where not granted')).rows[0].n), { interval: 10 }).toBeGreaterThan(0);
      const otherGoesOn = other.query('update dt_widget set name = $1 where id = $2', ['a by the other', a]);
      res = await answer;
      await otherGoesOn;
      await other.query('commit');
    } finally {
      spy.mockRestore();
      await other.end();
    }
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json().error.code).toBe('DATABASE_BUSY');
    expect(res.json().error.message).toMatch(THAI);
    expect(await count()).toBe(before);
    const names = await t.db.kysely.selectFrom('dt_widget').select(['id', 'name']).where('id', 'in', [a, b]).orderBy('id').execute();
    expect(names.map((r) => r.name)).toEqual(['a by the other', 'b by the other']);
    expect((await post('after the deadlock')).statusCode).toBe(201);
  });

  it.runIf(dialect === 'postgres')('a statement past the statement timeout: 503 in Thai, its transaction rolled back', async () => {
    const before = await count();
    // a write whose transaction goes on with a statement slower than the limit (a runaway query inside a posting)
    const spy = vi.spyOn(t.service, 'create').mockImplementation(async () => t.db.kysely.transaction().execute(async (trx) => {
      await trx.insertInto('dt_widget').values({ name: 'half written', created_at: new Date().toISOString(), updated_at: new Date().toISOString() }).execute();
      await sql`select pg_sleep(5)`.execute(trx);
      return {};
    }));
    let res;
    try {
      res = await post('slow');
    } finally {
      spy.mockRestore();
    }
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.code).toBe('DATABASE_TIMEOUT');
    expect(res.json().error.message).toMatch(THAI);
    expect(await count()).toBe(before);
    expect((await post('after the slow one')).statusCode).toBe(201);
  });
});
