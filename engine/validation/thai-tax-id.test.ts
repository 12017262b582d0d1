import { describe, expect, it } from 'vitest';
import { isValidThaiTaxId } from './thai-tax-id.ts';

describe('isValidThaiTaxId', () => {
  it.each(['0105536000313', '1101700207030', '3100600123450', '0000000000001'])('accepts %s (check digit correct)', (id) => {
    expect(isValidThaiTaxId(id)).toBe(true);
  });

  it.each([
    ['wrong check digit', '0105536000314'],
    ['another wrong check digit', '1101700207031'],
    ['two digits swapped', '0105536000331'],
    ['12 digits', '010553600031'],
    ['14 digits', '01055360003130'],
    ['dashes', '0-1055-36000-31-3'],
    ['spaces around', ' 0105536000313'],
    ['a letter', '010553600031A'],
    ['Thai digits', '๐๑๐๕๕๓๖๐๐๐๓๑๓'],
    ['empty', ''],
  ])('refuses %s', (_why, id) => {
    expect(isValidThaiTaxId(id)).toBe(false);
  });

  it('refuses every wrong last digit of a valid id', () => {
    const body = '110170020703';
    const valid = [...'0123456789'].filter((d) => isValidThaiTaxId(body + d));
    expect(valid).toEqual(['0']);
  });
});
