/**
 * SqliteChangeTracker: which tables a read depends on (from EXPLAIN), and whether any of them
 * changed since a point, whoever changed it: this connection (in or out of a transaction, committed
 * or rolled back), another connection to the same file, or a schema change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteChangeTracker } from '../../server/db/sqlite/sqlite-change-tracker.ts';

describe('SqliteChangeTracker', () => {
  let dir: string;
  let file: string;
  let raw: BetterSqlite3.Database;
  let tracker: SqliteChangeTracker;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'change-tracker-'));
    file = join(dir, 'db.sqlite');
    raw = new BetterSqlite3(file);
    raw.pragma('journal_mode = WAL');
    raw.exec(`create table a (id integer primary key, v text);
      create index ix_a_v on a (v);
      create table b (id integer primary key, a_id integer, w text);
      insert into a (v) values ('x'), ('y');
      insert into b (a_id, w) values (1, 'p')`);
    tracker = new SqliteChangeTracker(raw);
  });
  afterEach(() => {
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A point taken now, and a check that the tables are unchanged since (taking in what happened in between). */
  const since = (tables: readonly string[], at: number) => {
    tracker.mark();
    return tracker.unchangedSince(tables, at);
  };

  it('names the tables a statement reads, through indexes and joins', () => {
    expect(tracker.mark()).not.toBeNull();
    expect(tracker.reads('select v from a where v > ? order by v', ['a'])).toEqual(['a']);
    expect([...tracker.reads('select json_object(\'w\', b.w, \'v\', a.v) from b join a on a.id = b.a_id where b.id = ?', [1])!].sort()).toEqual(['a', 'b']);
    expect(tracker.reads('select count(*) as n from a where exists (select 1 from b where b.a_id = a.id)', [])!.slice().sort()).toEqual(['a', 'b']);
  });

  it('refuses statements whose answer can change with no table changed', () => {
    tracker.mark();
    expect(tracker.reads('select v, random() from a', [])).toBeNull();
    expect(tracker.reads("select v from a where ? < date('now')", ['2026-01-01'])).toBeNull();
    expect(tracker.reads('select value from json_each(?)', ['[1,2]'])).toBeNull();
    expect(tracker.reads('select name from sqlite_schema', [])).toBeNull();
    raw.function('my_fn', (x: unknown) => x);
    expect(tracker.reads('select my_fn(v) from a', [])).toBeNull();
  });

  it('sees inserts, updates and deletes of this connection, per table', () => {
    const at = tracker.mark()!;
    expect(since(['a', 'b'], at)).toBe(true);
    raw.prepare("insert into b (a_id, w) values (2, 'q')").run();
    expect(since(['a'], at)).toBe(true);
    expect(since(['b'], at)).toBe(false);
    const at2 = tracker.mark()!;
    raw.prepare("update a set v = 'z' where id = 1").run();
    expect(since(['a'], at2)).toBe(false);
    const at3 = tracker.mark()!;
    raw.prepare('delete from a where id = 2').run();
    expect(since(['a'], at3)).toBe(false);
    expect(since(['b'], at3)).toBe(true);
  });

  it('counts a table as changing while the transaction that changed it is open, and as changed after a rollback', () => {
    const at = tracker.mark()!;
    raw.exec('begin');
    raw.prepare("insert into a (v) values ('uncommitted')").run();
    // a read inside the transaction sees the row: what it read is not kept
    const inside = tracker.mark()!;
    expect(tracker.unchangedSince(['a'], inside)).toBe(false);
    raw.exec('rollback');
    expect(since(['a'], at)).toBe(false);
    expect(since(['a'], inside)).toBe(false);
    // and a point taken after the rollback is clean again
    const after = tracker.mark()!;
    expect(since(['a'], after)).toBe(true);
  });

  it('treats everything as changed when another connection commits', () => {
    const at = tracker.mark()!;
    const other = new BetterSqlite3(file);
    try {
      other.prepare("insert into b (a_id, w) values (1, 'from elsewhere')").run();
    } finally {
      other.close();
    }
    expect(since(['a'], at)).toBe(false);
    expect(since(['a'], tracker.mark()!)).toBe(true);
  });

  it('after a schema change, watches the new and rebuilt tables and explains statements again', () => {
    const at = tracker.mark()!;
    raw.exec(`create table c (id integer primary key, n integer);
      create table a_new (id integer primary key, v text, extra text);
      insert into a_new (id, v) select id, v from a;
      drop table a;
      alter table a_new rename to a`);
    expect(since(['b'], at)).toBe(false);
    const at2 = tracker.mark()!;
    expect(tracker.reads('select n from c', [])).toEqual(['c']);
    expect(tracker.reads('select v from a', [])).toEqual(['a']);
    raw.prepare('insert into c (n) values (1)').run();
    raw.prepare("update a set extra = 'e'").run();
    expect(since(['c'], at2)).toBe(false);
    expect(since(['a'], at2)).toBe(false);
    expect(since(['b'], at2)).toBe(true);
  });

  it('watches nothing while the first point is taken inside a transaction, and then keeps nothing', () => {
    raw.exec('begin');
    expect(tracker.mark()).toBeNull();
    expect(tracker.reads('select v from a', [])).toBeNull();
    raw.exec('commit');
    expect(tracker.mark()).not.toBeNull();
  });

  it('leaves the file as it was: its triggers are the connection\'s own', () => {
    tracker.mark();
    expect((raw.prepare("select count(*) as n from temp.sqlite_schema where type = 'trigger'").get() as { n: number }).n).toBe(6);
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      expect(other.prepare("select count(*) as n from sqlite_schema where type = 'trigger'").get()).toEqual({ n: 0 });
    } finally {
      other.close();
    }
  });

  it('watches a table made under the name of one renamed away (SQLite moves triggers along with a rename)', () => {
    tracker.mark();
    raw.exec('alter table a rename to a_old; create table a (id integer primary key, v text)');
    const at = tracker.mark()!;
    expect(tracker.reads('select v from a', [])).toEqual(['a']);
    raw.prepare("insert into a (v) values ('new')").run();
    expect(since(['a'], at)).toBe(false);
    const at2 = tracker.mark()!;
    raw.prepare("insert into a_old (v) values ('old')").run();
    expect(since(['a_old'], at2)).toBe(false);
    expect(since(['a'], at2)).toBe(true);
  });

  it('treats a TEMP table that hides a main one as a change, and never keeps what reads it', () => {
    const at = tracker.mark()!;
    raw.exec("create temp table a (id integer primary key, v text); insert into temp.a (v) values ('temp')");
    expect(since(['a'], at)).toBe(false);
    tracker.mark();
    expect(tracker.reads('select v from a', [])).toBeNull();
  });
});
