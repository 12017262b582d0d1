/**
 * Rows read through Kysely on SQLite are built by one object literal per
 * statement (server/db/sqlite/sqlite-database.ts rowShaper): they must be what
 * better-sqlite3 itself answers, key order included, and follow a table
 * changed while its statements are cached.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openSqlite, sqliteHandle } from '../../server/db/sqlite/sqlite-database.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';

describe('SQLite rows through the statement cache', () => {
  let dir: string;
  let db: Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bo-rows-'));
    db = openSqlite(join(dir, 'rows.sqlite'));
    await sql`create table t (id integer primary key, name text, qty integer, price real, note text, pic blob)`.execute(db.kysely);
    await sql`insert into t (name, qty, price, note, pic) values ('สินค้า', 3, 1.5, null, x'00ff'), ('b', -2, 0, 'x"y\\z', null)`.execute(db.kysely);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the same rows, keys in the same order, as better-sqlite3 reading alone', async () => {
    const direct = sqliteHandle(db)!.prepare('select * from t order by id').all() as Record<string, unknown>[];
    for (let i = 0; i < 3; i++) {
      // the second and third read come from the cached, shaped statement
      const { rows } = await sql<Record<string, unknown>>`select * from t order by id`.execute(db.kysely);
      expect(rows).toEqual(direct);
      expect(rows.map((r) => Object.keys(r))).toEqual(direct.map((r) => Object.keys(r)));
      expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    }
    const built = await db.kysely.selectFrom('t').select(['name', 'qty']).where('qty', '>', 0).execute();
    expect(built).toEqual([{ name: 'สินค้า', qty: 3 }]);
  });

  it('keeps odd column names as keys: quotes, backslashes, a repeated name, and __proto__', async () => {
    const q = sql<Record<string, unknown>>`select name as "a""b\\c", qty as "x", price as "x", id as "__proto__" from t order by id`;
    const direct = sqliteHandle(db)!.prepare(`select name as "a""b\\c", qty as "x", price as "x", id as "__proto__" from t order by id`).all() as Record<string, unknown>[];
    await q.execute(db.kysely);
    const { rows } = await q.execute(db.kysely);
    expect(rows).toEqual(direct);
    expect(rows[0]!['a"b\\c']).toBe('สินค้า');
    expect(rows[0]!.x).toBe(1.5);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
  });

  it('a column added while "select *" is cached shows in the next read', async () => {
    await sql`select * from t`.execute(db.kysely);
    await db.kysely.schema.alterTable('t').addColumn('extra', 'text').execute();
    await sql`update t set extra = 'new'`.execute(db.kysely);
    const { rows } = await sql<Record<string, unknown>>`select * from t`.execute(db.kysely);
    expect(rows[0]!.extra).toBe('new');
  });

  it('a column added by another connection (no DDL seen here) shows too', async () => {
    await sql`select * from t`.execute(db.kysely);
    sqliteHandle(db)!.exec(`alter table t add column other integer default 7`);
    const { rows } = await sql<Record<string, unknown>>`select * from t order by id`.execute(db.kysely);
    expect(rows[0]!.other).toBe(7);
    expect(Object.keys(rows[0]!).at(-1)).toBe('other');
  });

  it('streams rows in the same shape', async () => {
    const streamed: unknown[] = [];
    for await (const r of db.kysely.selectFrom('t').select(['id', 'name']).orderBy('id').stream()) streamed.push(r);
    expect(streamed).toEqual([{ id: 1, name: 'สินค้า' }, { id: 2, name: 'b' }]);
  });
});
