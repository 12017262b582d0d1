/**
 * A list's compiled statement is kept by its shape (server/crud/list-statement-cache.ts):
 * the key rules, and each run's limit and offset written into its SQL as numbers.
 */
import { describe, expect, it } from 'vitest';
import type { CompiledQuery } from 'kysely';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import { ListStatementCache } from '../../server/crud/list-statement-cache.ts';
import type { ListQuery } from '../../server/crud/list-query.ts';

const query = (over: Partial<ListQuery> = {}): ListQuery => ({ filter: null, sort: [{ path: ['id'], desc: true }], limit: 50, offset: 0, page: 1, search: null, fields: null, withTotal: false, ...over });
const cond = (path: string[], value: number): FilterNode => ({ kind: 'cond', path, op: '_eq', value });
const compiled = (sql: string, parameters: unknown[] = [0, 'x']): CompiledQuery => ({ sql, parameters, query: {} as never, queryId: {} as never });

describe('ListStatementCache keys', () => {
  const cache = new ListStatementCache();
  const key = (over: Partial<ListQuery>, scope: FilterNode | null = null, userId: number | null = 7, version = 1) => cache.keyOf('product', version, userId, scope, query(over));

  it('names everything a list statement depends on, but not its limit and offset', () => {
    const base = key({});
    expect(base).not.toBeNull();
    expect(key({ limit: 10, offset: 30, page: 4 })).toBe(base);
    for (const other of [
      key({ filter: cond(['code'], 1) }), key({ filter: cond(['code'], 2) }), key({ search: 'ท่อ' }),
      key({ sort: [{ path: ['code'], desc: false }] }), key({ fields: [['id'], ['code']] }),
      key({}, cond(['owner_id'], 7)), key({}, null, 8), key({}, null, 7, 2),
    ]) expect(other).not.toBe(base);
    expect(key({ filter: cond(['code'], 1) })).not.toBe(key({ filter: cond(['code'], 2) }));
    expect(key({}, cond(['owner_id'], 7))).not.toBe(key({}, cond(['owner_id'], 8)));
  });

  it('keeps no list that reaches another entity through a link: its SQL carries that entity\'s scope', () => {
    expect(key({ fields: [['id'], ['customer_id', 'name_th']] })).toBeNull();
    expect(key({ sort: [{ path: ['customer_id', 'name_th'], desc: false }] })).toBeNull();
    expect(key({ filter: { kind: 'or', children: [cond(['id'], 1), cond(['customer_id', 'id'], 2)] } })).toBeNull();
    expect(key({}, { kind: 'and', children: [cond(['order_id', 'owner_id'], 7)] })).toBeNull();
  });
});

describe('ListStatementCache statements', () => {
  it('compiles a shape once and writes each run\'s limit and offset in', () => {
    const cache = new ListStatementCache();
    let builds = 0;
    const build = (limit: number, offset: number) => { builds++; return compiled(`select "t"."id" from "t" where "t"."n" = ? order by "t"."id" limit ${limit} offset ${offset}`); };
    expect(cache.statement('k', 50, 0, build).sql).toBe('select "t"."id" from "t" where "t"."n" = ? order by "t"."id" limit 50 offset 0');
    const other = cache.statement('k', 20, 40, build);
    expect(other.sql).toBe('select "t"."id" from "t" where "t"."n" = ? order by "t"."id" limit 20 offset 40');
    expect(other.parameters).toEqual([0, 'x']);
    expect(builds).toBe(1);
    // the kept statement itself is untouched by a run
    expect(cache.statement('k', 50, 0, build).sql).toBe('select "t"."id" from "t" where "t"."n" = ? order by "t"."id" limit 50 offset 0');
  });

  it('gives each page its own text when the page changes and changes back (the last page\'s text is handed out again)', () => {
    const cache = new ListStatementCache();
    const build = (limit: number, offset: number) => compiled(`select … limit ${limit} offset ${offset}`);
    expect(cache.statement('k', 50, 0, build).sql).toBe('select … limit 50 offset 0');
    expect(cache.statement('k', 50, 0, build).sql).toBe('select … limit 50 offset 0');
    expect(cache.statement('k', 50, 50, build).sql).toBe('select … limit 50 offset 50');
    expect(cache.statement('k', 50, 0, build).sql).toBe('select … limit 50 offset 0');
    expect(cache.statement('k', 25, 0, build).sql).toBe('select … limit 25 offset 0');
  });

  it('builds every run afresh when limit and offset cannot be found once each in the SQL', () => {
    const cache = new ListStatementCache();
    let builds = 0;
    const bound = (limit: number, offset: number) => { builds++; return compiled('select … limit ? offset ?', [limit, offset]); };
    expect(cache.statement('k', 50, 0, bound).parameters).toEqual([50, 0]);
    expect(cache.statement('k', 10, 5, bound).parameters).toEqual([10, 5]);
    expect(builds).toBe(3); // the marked compile, then one per run
    // a marker's text twice (a filter value equal to it) is not rewritten either
    const twice = (limit: number, offset: number) => compiled(`select … where n = ${limit} limit ${limit} offset ${offset}`);
    expect(cache.statement('t', 7, 0, twice).sql).toBe('select … where n = 7 limit 7 offset 0');
  });

  it('refuses a limit or offset that is not a whole number, so nothing else is written into SQL', () => {
    const cache = new ListStatementCache();
    const build = (limit: number, offset: number) => compiled(`select … limit ${limit} offset ${offset}`);
    expect(() => cache.statement('k', 1.5, 0, build)).toThrow();
    expect(() => cache.statement('k', 10, Number.NaN, build)).toThrow();
  });

  it('holds at most its capacity, dropping the shape used longest ago', () => {
    const cache = new ListStatementCache(2);
    let builds = 0;
    const build = (limit: number, offset: number) => { builds++; return compiled(`select … limit ${limit} offset ${offset}`); };
    for (const k of ['a', 'b', 'a', 'c']) cache.statement(k, 1, 0, build);
    expect(builds).toBe(3); // a, b, c: the second a was kept
    cache.statement('a', 1, 0, build);
    expect(builds).toBe(3); // a was used after b, so c pushed b out
    cache.statement('b', 1, 0, build);
    expect(builds).toBe(4);
  });
});

describe('ListStatementCache statements without a limit (a list\'s count)', () => {
  it('compiles each key once and hands out what it compiled', () => {
    const cache = new ListStatementCache();
    let builds = 0;
    const build = (n: number) => () => { builds++; return compiled(`select count(*) as "n" from "t" where "t"."n" = ${n}`); };
    const first = cache.once('a', build(1));
    expect(cache.once('a', build(1))).toBe(first);
    expect(builds).toBe(1);
    expect(cache.once('b', build(2)).sql).toBe('select count(*) as "n" from "t" where "t"."n" = 2');
    expect(builds).toBe(2);
  });
});
