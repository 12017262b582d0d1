import { describe, expect, it } from 'vitest';
import { columnAll, effective, isExplicit, parseRoleDetail, rowAll, serialize, setFlag, toggleColumn, toggleRow, unknownKeys, type RoleDetail } from './role-matrix-model.ts';

const samples: string[] = [
  '{"*":{"view":true,"email":true,"print":true,"export":true,"edit":true}}',
  '{"customer":{"view":true,"edit":false,"print":false,"export":false,"email":false},"billing_note":{"view":true}}',
  '{"*":{"view":true},"customer":{"edit":true},"legacy_key":{"print":true,"extra":1}}',
  '{}',
];

describe('role matrix model', () => {
  it.each(samples)('round-trips %s to the same role_detail JSON', (text) => {
    const model = parseRoleDetail(text);
    expect(JSON.stringify(serialize(model))).toBe(text);
    // ticking a flag and ticking it back also gives the same flags for that key
    const key = Object.keys(model)[0] ?? 'customer';
    const before = effective(model, key, 'view');
    const twice = setFlag(setFlag(model, key, 'view', !before), key, 'view', before);
    expect(effective(twice, key, 'view')).toBe(before);
  });

  it('accepts an object as well as JSON text, and refuses what is not an object', () => {
    expect(parseRoleDetail({ a: { view: true } })).toEqual({ a: { view: true } });
    expect(parseRoleDetail('not json')).toEqual({});
    expect(parseRoleDetail('[1,2]')).toEqual({});
    expect(parseRoleDetail(null)).toEqual({});
  });

  it('reads flags as the server does: own value, else "*"', () => {
    const d = parseRoleDetail('{"*":{"view":true},"customer":{"view":false,"edit":true}}');
    expect(effective(d, 'customer', 'view')).toBe(false);
    expect(effective(d, 'customer', 'edit')).toBe(true);
    expect(effective(d, 'product', 'view')).toBe(true);
    expect(isExplicit(d, 'product', 'view')).toBe(false);
    expect(effective(d, 'product', 'edit')).toBe(false);
  });

  it('ticks a whole row on, then off', () => {
    let d: RoleDetail = { customer: { view: true } };
    d = toggleRow(d, 'customer');
    expect(d.customer).toEqual({ view: true, edit: true, print: true, export: true, email: true });
    expect(rowAll(d, 'customer')).toBe(true);
    d = toggleRow(d, 'customer');
    expect(d.customer).toEqual({ view: false, edit: false, print: false, export: false, email: false });
  });

  it('ticks a whole column over the keys shown, leaving other keys alone', () => {
    let d: RoleDetail = { customer: { view: true }, other: { print: true } };
    d = toggleColumn(d, ['customer', 'product'], 'view');
    expect(d).toEqual({ customer: { view: true }, product: { view: true }, other: { print: true } });
    expect(columnAll(d, ['customer', 'product'], 'view')).toBe(true);
    d = toggleColumn(d, ['customer', 'product'], 'view');
    expect(d.customer!.view).toBe(false);
    expect(d.product!.view).toBe(false);
    expect(d.other).toEqual({ print: true });
  });

  it('lists keys no menu knows, so they are kept and shown', () => {
    expect(unknownKeys({ '*': {}, customer: {}, zz_old: {} }, ['customer'])).toEqual(['zz_old']);
  });
});
