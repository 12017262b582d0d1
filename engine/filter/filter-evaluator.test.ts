import { describe, expect, it } from 'vitest';
import { evaluateFilter } from './filter-evaluator.ts';
import { parseFilter } from './filter-parser.ts';
import { item, resolver } from '../../tests/support/filter-fixtures.ts';

const record = {
  code: 'AB-12', name_th: 'บริษัท ไทย Widget', qty: 5, price: 12.5, active: true, made_on: '2024-06-15',
  status: 'new', extra: null, maker_id: { id: 3, name: 'Acme', country_id: { id: 1, code: 'TH' } },
};
const empty = { code: 'X', qty: null, name_th: '', active: false, maker_id: null };

function matches(raw: unknown, rec: Record<string, unknown> = record): boolean {
  return evaluateFilter(parseFilter(raw, item, resolver), rec);
}

describe('evaluateFilter', () => {
  it.each([
    [{ code: { _eq: 'AB-12' } }, true],
    [{ code: { _eq: 'ab-12' } }, false],
    [{ code: { _neq: 'AB-12' } }, false],
    [{ code: { _neq: 'ZZ' } }, true],
    [{ qty: { _lt: 5 } }, false],
    [{ qty: { _lte: 5 } }, true],
    [{ qty: { _gt: 4 } }, true],
    [{ qty: { _gte: 6 } }, false],
    [{ qty: { _gt: 10 } }, false], // compared as numbers, not as text ("5" > "10")
    [{ price: { _between: [12.5, 13] } }, true],
    [{ price: { _between: [1, 12.49] } }, false],
    [{ made_on: { _between: ['2024-01-01', '2024-12-31'] } }, true],
    [{ made_on: { _lt: '2024-06-15' } }, false],
    [{ status: { _in: ['old', 'new'] } }, true],
    [{ status: { _in: 'old,gone' } }, false],
    [{ status: { _nin: ['old'] } }, true],
    [{ status: { _nin: ['new'] } }, false],
    [{ extra: { _null: true } }, true],
    [{ extra: { _nnull: true } }, false],
    [{ code: { _null: false } }, true],
    [{ name_th: { _contains: 'ไทย' } }, true],
    [{ name_th: { _contains: 'widget' } }, false], // case-sensitive
    [{ name_th: { _icontains: 'WIDGET' } }, true],
    [{ name_th: { _icontains: 'ญี่ปุ่น' } }, false],
    [{ code: { _starts_with: 'AB' } }, true],
    [{ code: { _starts_with: 'B' } }, false],
    [{ active: { _eq: true } }, true],
    [{ active: { _eq: false } }, false],
    [{ qty: { _eq: '5' } }, true], // a number typed into a form arrives as text
  ])('%j → %s', (raw, expected) => {
    expect(matches(raw)).toBe(expected);
  });

  it('treats null, missing and empty text as empty', () => {
    expect(matches({ qty: { _null: true } }, empty)).toBe(true);
    expect(matches({ made_on: { _null: true } }, empty)).toBe(true);
    expect(matches({ name_th: { _null: true } }, empty)).toBe(true);
    expect(matches({ qty: { _nnull: true } }, empty)).toBe(false);
  });

  it('an empty value never equals or compares, but _neq and _nin include it (as SQL does)', () => {
    expect(matches({ qty: { _eq: 0 } }, empty)).toBe(false);
    expect(matches({ qty: { _lt: 100 } }, empty)).toBe(false);
    expect(matches({ qty: { _gte: 0 } }, empty)).toBe(false);
    expect(matches({ qty: { _in: [0, 1] } }, empty)).toBe(false);
    expect(matches({ qty: { _neq: 5 } }, empty)).toBe(true);
    expect(matches({ qty: { _nin: [5] } }, empty)).toBe(true);
    expect(matches({ name_th: { _contains: '' } }, empty)).toBe(false);
  });

  it('compares booleans stored as 0/1 or true/false alike', () => {
    expect(matches({ active: { _eq: false } }, empty)).toBe(true);
    expect(matches({ active: { _eq: true } }, { active: 1 })).toBe(true);
    expect(matches({ active: { _eq: false } }, { active: 0 })).toBe(true);
  });

  it('combines with _and and _or', () => {
    expect(matches({ _and: [{ qty: { _gt: 1 } }, { code: { _starts_with: 'AB' } }] })).toBe(true);
    expect(matches({ _and: [{ qty: { _gt: 1 } }, { code: { _starts_with: 'ZZ' } }] })).toBe(false);
    expect(matches({ _or: [{ qty: { _gt: 100 } }, { code: { _starts_with: 'AB' } }] })).toBe(true);
    expect(matches({ _or: [{ qty: { _gt: 100 } }, { code: { _starts_with: 'ZZ' } }] })).toBe(false);
    expect(matches({ qty: { _gt: 1 }, status: { _eq: 'old' } })).toBe(false);
  });

  it('reads dotted and nested paths through linked objects', () => {
    expect(matches({ 'maker_id.name': { _eq: 'Acme' } })).toBe(true);
    expect(matches({ maker_id: { name: { _icontains: 'acm' } } })).toBe(true);
    expect(matches({ 'maker_id.country_id.code': { _eq: 'TH' } })).toBe(true);
    expect(matches({ 'maker_id.country_id.code': { _eq: 'JP' } })).toBe(false);
    // no linked object loaded: the value is empty
    expect(matches({ 'maker_id.name': { _null: true } }, empty)).toBe(true);
    expect(matches({ 'maker_id.name': { _eq: 'Acme' } }, empty)).toBe(false);
  });
});
