import { describe, expect, it } from 'vitest';
import { parseFilter, FilterError } from './filter-parser.ts';
import { FILTER_OPERATORS } from './filter-types.ts';
import { item, resolver } from '../../tests/support/filter-fixtures.ts';

const parse = (raw: unknown) => parseFilter(raw, item, resolver);

function errorOf(raw: unknown, res = resolver): FilterError {
  try {
    parseFilter(raw, item, res);
  } catch (err) {
    expect(err).toBeInstanceOf(FilterError);
    return err as FilterError;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

describe('parseFilter: operators', () => {
  it.each([
    ['_eq', 'code', 'A1', 'A1'],
    ['_neq', 'code', 'A1', 'A1'],
    ['_lt', 'qty', 5, 5],
    ['_lte', 'qty', 5, 5],
    ['_gt', 'price', 9.99, 9.99],
    ['_gte', 'made_on', '2024-01-01', '2024-01-01'],
    ['_in', 'status', ['new', 'old'], ['new', 'old']],
    ['_in', 'code', 'A,B,C', ['A', 'B', 'C']],
    ['_nin', 'qty', [1, 2], [1, 2]],
    ['_null', 'maker_id', true, true],
    ['_null', 'maker_id', 'false', false],
    ['_nnull', 'extra', 'true', true],
    ['_contains', 'name_th', 'ไทย', 'ไทย'],
    ['_icontains', 'code', 'abc', 'abc'],
    ['_starts_with', 'code', 12, '12'],
    ['_between', 'qty', [1, 10], [1, 10]],
    ['_between', 'made_on', '2024-01-01,2024-12-31', ['2024-01-01', '2024-12-31']],
    ['_eq', 'active', true, true],
    ['_eq', 'code', null, null],
  ])('%s on %s', (op, field, value, expected) => {
    expect(parse({ [field]: { [op]: value } })).toEqual({ kind: 'cond', path: [field], op, value: expected });
  });

  it('the table above covers every operator', () => {
    // kept in step with FILTER_OPERATORS: a new operator needs a case here
    expect([...FILTER_OPERATORS].sort()).toEqual(['_between', '_contains', '_eq', '_gt', '_gte', '_icontains', '_in', '_lt', '_lte', '_neq', '_nin', '_nnull', '_null', '_starts_with']);
  });

  it('filters on system columns', () => {
    expect(parse({ id: { _gt: 3 } })).toEqual({ kind: 'cond', path: ['id'], op: '_gt', value: 3 });
    expect(parse({ created_at: { _gte: '2024-01-01T00:00:00Z' } })).toMatchObject({ path: ['created_at'] });
  });
});

describe('parseFilter: combinations and paths', () => {
  it('parses _and and _or, nested', () => {
    expect(parse({ _or: [{ code: { _eq: 'A' } }, { _and: [{ qty: { _gt: 1 } }, { qty: { _lt: 9 } }] }] })).toEqual({
      kind: 'or',
      children: [
        { kind: 'cond', path: ['code'], op: '_eq', value: 'A' },
        { kind: 'and', children: [{ kind: 'cond', path: ['qty'], op: '_gt', value: 1 }, { kind: 'cond', path: ['qty'], op: '_lt', value: 9 }] },
      ],
    });
  });

  it('ands several fields and several operators on one field', () => {
    expect(parse({ code: { _eq: 'A' }, qty: { _gte: 1, _lte: 5 } })).toEqual({
      kind: 'and',
      children: [
        { kind: 'cond', path: ['code'], op: '_eq', value: 'A' },
        { kind: 'cond', path: ['qty'], op: '_gte', value: 1 },
        { kind: 'cond', path: ['qty'], op: '_lte', value: 5 },
      ],
    });
  });

  it('follows dotted paths through links, two levels deep', () => {
    expect(parse({ 'maker_id.name': { _icontains: 'acme' } })).toEqual({ kind: 'cond', path: ['maker_id', 'name'], op: '_icontains', value: 'acme' });
    expect(parse({ 'maker_id.country_id.code': { _eq: 'TH' } })).toEqual({ kind: 'cond', path: ['maker_id', 'country_id', 'code'], op: '_eq', value: 'TH' });
  });

  it('reads the nested relational form the same as the dotted one', () => {
    expect(parse({ maker_id: { name: { _icontains: 'acme' } } })).toEqual(parse({ 'maker_id.name': { _icontains: 'acme' } }));
    expect(parse({ maker_id: { country_id: { code: { _eq: 'TH' } } } })).toEqual(parse({ 'maker_id.country_id.code': { _eq: 'TH' } }));
  });
});

describe('parseFilter: refusals', () => {
  it.each([
    [{ colour: { _eq: 'red' } }, 'filter.colour'],
    [{ 'code; drop table customer--': { _eq: 1 } }, 'filter.code; drop table customer--'],
    [{ 'code" or 1=1 --': { _eq: 1 } }, 'filter.code" or 1=1 --'],
    [{ "code' or '1'='1": { _eq: 1 } }, "filter.code' or '1'='1"],
    [{ 'maker_id.name) or (1=1': { _eq: 'x' } }, 'filter.maker_id.name) or (1=1'],
    [{ 'maker_id.nope': { _eq: 'x' } }, 'filter.maker_id.nope'],
    [{ 'code.name': { _eq: 'x' } }, 'filter.code.name'],
    [{ parts: { _null: true } }, 'filter.parts'],
    [{ _or: [{ code: { _eq: 'A' } }, { 'sleep(5)': { _eq: 1 } }] }, 'filter._or[1].sleep(5)'],
    [{ maker_id: { 'name; drop table maker': { _eq: 1 } } }, 'filter.maker_id.name; drop table maker'],
  ])('UNKNOWN_FIELD for %j', (raw, path) => {
    const err = errorOf(raw);
    expect(err.code).toBe('UNKNOWN_FIELD');
    expect(err.path).toBe(path);
  });

  it('names the unknown step and the entity', () => {
    expect(errorOf({ 'maker_id.nope': { _eq: 1 } }).message).toBe('"nope" is not a field of maker');
    expect(errorOf({ 'code.name': { _eq: 1 } }).message).toMatch(/"code" of item is not a link/);
  });

  it.each([
    ['unknown operator', { code: { _like: '%a%' } }, /unknown operator "_like"/],
    ['operator at the top', { _eq: 'a' }, /not an operator here/],
    ['object value', { code: { _eq: { $ne: null } } }, /takes a single value/],
    ['array value for _eq', { code: { _eq: ['a'] } }, /takes a single value/],
    ['non-scalar in a list', { code: { _in: ['a', { b: 1 }] } }, /takes a list of values/],
    ['_in with an object', { code: { _in: { a: 1 } } }, /takes a list of values/],
    ['_between with one value', { qty: { _between: [1] } }, /exactly two values/],
    ['_between with three values', { qty: { _between: [1, 2, 3] } }, /exactly two values/],
    ['_between with a string of one', { qty: { _between: '5' } }, /exactly two values/],
    ['empty _in', { qty: { _in: [] } }, /at least one value/],
    ['_contains on a number', { qty: { _contains: '1' } }, /text fields only/],
    ['_icontains on money', { price: { _icontains: '1' } }, /text fields only/],
    ['_starts_with on a date', { made_on: { _starts_with: '2024' } }, /text fields only/],
    ['_contains with a boolean', { code: { _contains: true } }, /takes text/],
    ['_null with a word', { code: { _null: 'yes' } }, /takes true or false/],
    ['comparing JSON', { extra: { _eq: 'x' } }, /JSON/],
    ['a field without an operator object', { code: 'A' }, /needs an operator object/],
    ['a field with no operator', { code: {} }, /has no operator/],
    ['a filter that is a list', [{ code: { _eq: 'A' } }], /must be a JSON object/],
    ['_or that is not a list', { _or: { code: { _eq: 'A' } } }, /takes a list of filters/],
    // what JSON.parse makes of 1e999: it would also read back as null from a cache key or a log line
    ['an infinite number', JSON.parse('{"code": {"_gt": 1e999}}'), /finite numbers only/],
    ['an infinite number in a list', JSON.parse('{"qty": {"_in": [1, -1e999]}}'), /finite numbers only/],
  ])('INVALID_FILTER: %s', (_name, raw, message) => {
    const err = errorOf(raw);
    expect(err.code).toBe('INVALID_FILTER');
    expect(err.message).toMatch(message);
  });

  it('refuses filters nested too deep', () => {
    let raw: unknown = { code: { _eq: 'A' } };
    for (let i = 0; i < 12; i++) raw = { _and: [raw] };
    expect(errorOf(raw).code).toBe('INVALID_FILTER');
  });

  it('refuses more than 1000 values in _in', () => {
    expect(errorOf({ qty: { _in: Array.from({ length: 1001 }, (_, i) => i) } }).message).toMatch(/at most 1000/);
  });

  it('answers FIELD_FORBIDDEN when the resolver may not read a field, also through a link', () => {
    const res = { ...resolver, canRead: (e: { name: string }, f: string) => !(e.name === 'maker' && f === 'name') };
    expect(errorOf({ 'maker_id.name': { _eq: 'x' } }, res).code).toBe('FIELD_FORBIDDEN');
    expect(() => parseFilter({ code: { _eq: 'x' } }, item, res)).not.toThrow();
  });
});
