/**
 * On SQLite a list page's rows are written as JSON by the database (server/db/sqlite/sqlite-row-json.ts)
 * instead of being decoded by field-codec.ts and stringified. The two must give every client the
 * same values: here every field type's stored forms, edge values and random numbers go through
 * both and are compared value by value (numbers with Object.is, so 650 and "650.0" are equal and
 * 0.1 and 0.1000000000000001 are not).
 */
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { FieldDef, FieldType } from '../../engine/schema/schema-types.ts';
import { rowDecoder } from '../../server/db/field-codec.ts';
import { sqliteRowJson } from '../../server/db/sqlite/sqlite-row-json.ts';
import { sqliteAdapter } from '../../server/db/sqlite/sqlite-database.ts';

const label = { th: 'ทดสอบ', en: 'Probe' };
const field = (type: FieldType, extra: Partial<FieldDef> = {}): FieldDef => ({ type, label, ...extra }) as FieldDef;

const FIELDS: Record<string, FieldDef> = {
  id: field('integer'),
  flag: field('boolean'),
  amount: field('money'),
  whole: field('decimal', { scale: 0 }),
  qty: field('decimal', { scale: 3 }),
  rate: field('decimal', { scale: 6 }),
  extra: field('json'),
  name: field('string'),
  body: field('text'),
  count: field('integer'),
  ref: field('link', { entity: 'product' }),
  stamp: field('datetime'),
  day: field('date'),
  kind: field('enum'),
  mail: field('email'),
  picture: field('image'),
  doc: field('file'),
  shade: field('color'),
  site: field('url'),
  tel: field('phone'),
  tax: field('tax_id'),
};

/** Compares two decoded values exactly: same keys, same types, numbers by Object.is. */
function same(a: unknown, b: unknown, path: string): void {
  if (typeof a === 'number' || typeof b === 'number') {
    expect(Object.is(a, b), `${path}: ${String(a)} against ${String(b)}`).toBe(true);
    return;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    expect(Array.isArray(a), path).toBe(Array.isArray(b));
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(a)) same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    return;
  }
  expect(a, path).toStrictEqual(b);
}

function probe() {
  const db = new BetterSqlite3(':memory:');
  const columns = Object.entries(FIELDS).map(([n, f]) => `"${n}" ${n === 'id' ? 'integer primary key' : sqliteAdapter.columnType(f)}`);
  db.exec(`create table probe (${columns.join(', ')}, is_deleted smallint not null default 0)`);
  const names = Object.keys(FIELDS);
  const insert = db.prepare(`insert into probe (${names.map((n) => `"${n}"`).join(', ')}) values (${names.map(() => '?').join(', ')})`);
  const expression = sqliteRowJson('t', names.map((n) => [n, FIELDS[n]] as const));
  const asJson = db.prepare(`select ${expression} as j from probe as "t" order by "t"."id"`).pluck();
  const asRows = db.prepare(`select ${names.map((n) => `"${n}"`).join(', ')} from probe order by id`);
  const decode = rowDecoder(new Map(Object.entries(FIELDS)), 'is_deleted');
  const compare = () => {
    const fromSql = (asJson.all() as Buffer[]).map((j) => JSON.parse(j.toString('utf8')));
    const fromCodec = JSON.parse(JSON.stringify((asRows.all() as Record<string, unknown>[]).map(decode)));
    expect(fromSql).toHaveLength(fromCodec.length);
    fromSql.forEach((row, i) => {
      expect(Object.keys(row), `row ${i}: the same keys in the same order`).toEqual(Object.keys(fromCodec[i]));
      same(row, fromCodec[i], `row ${i}`);
    });
    return fromSql.length;
  };
  return { db, insert, names, compare };
}

describe('SQLite rows written as JSON by the database', () => {
  it('give what the codec gives for every field type, with edge values', () => {
    const p = probe();
    const row = (values: Record<string, unknown>) => p.insert.run(p.names.map((n) => (n in values ? values[n] : null)));
    row({});
    row({ flag: 0, amount: 0, whole: 0, qty: 0, rate: 0, count: 0, ref: 0, extra: '{}', name: '', body: '' });
    row({ flag: 1, amount: 65000, whole: 7, qty: 1, rate: 1, count: -5, ref: 3, extra: '[]', name: 'ภาษาไทย ๑๒๓', body: 'บรรทัด\nใหม่\tแท็บ' });
    row({ flag: 1, amount: -5, whole: -3, qty: -1500, rate: 123456789012, count: 2 ** 53 - 1, extra: '{"a":[1,2.5,"ไทย",null,true],"b":{"c":"\\"q\\""}}', name: 'quote " back \\ slash', body: '\u0001 control \u2028 separator' });
    row({ flag: 0, amount: 2150, qty: 1234567, rate: 999999, extra: '"text"', name: 'emoji 😀 </script>', stamp: '2026-11-25T10:00:00.000Z', day: '2026-11-25', kind: 'vat7' });
    row({ amount: 9007199254740991, qty: 10, rate: 100000, extra: '5', mail: 'a@b.co', picture: '/files/1', doc: '/files/2', shade: '#ff0000', site: 'https://x.th', tel: '+66 2 123 4567', tax: '0105551234567' });
    row({ amount: -999999999999, extra: 'null', name: 'null', body: 'true' });
    expect(p.compare()).toBe(7);
  });

  it('give the same numbers for random money and decimals', () => {
    const p = probe();
    let seed = 42;
    const next = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed; };
    const magnitude = () => Math.floor((next() / 2 ** 31) * 10 ** (1 + (next() % 15))) * (next() % 2 ? 1 : -1);
    for (let i = 0; i < 2000; i++) p.insert.run(p.names.map((n) => (n === 'amount' || n === 'qty' || n === 'rate' || n === 'whole' ? magnitude() : null)));
    expect(p.compare()).toBe(2000);
  });

  it('refuses a name that cannot be written into SQL as it is', () => {
    expect(() => sqliteRowJson('t', [['id', FIELDS.id], ['bad"name', FIELDS.name]])).toThrow(/not an identifier/);
    expect(() => sqliteRowJson('t"', [['id', FIELDS.id]])).toThrow(/not an identifier/);
  });
});
