import { describe, expect, it } from 'vitest';
import { DecimalInputError, parseDecimal, roundDiv, toDecimalString, toNumber } from './decimal-value.ts';

describe('parseDecimal', () => {
  it('reads JSON numbers and decimal strings as scaled integers', () => {
    expect(parseDecimal(1250.5, 2)).toBe(125050n);
    expect(parseDecimal('1250.50', 2)).toBe(125050n);
    expect(parseDecimal(' 7 ', 2)).toBe(700n);
    expect(parseDecimal(0.1, 2)).toBe(10n);
    expect(parseDecimal(2.0001, 4)).toBe(20001n);
    expect(parseDecimal('-3.5', 2)).toBe(-350n);
    expect(parseDecimal(1e21, 2)).toBe(10n ** 23n);
    expect(parseDecimal('1.2500', 2)).toBe(125n);
  });
  it('refuses more decimals than the scale instead of rounding', () => {
    expect(() => parseDecimal(12.3400000001, 2, 'price')).toThrow(DecimalInputError);
    expect(() => parseDecimal(12.3400000001, 2, 'price')).toThrow(/price has more than 2 decimals/);
    expect(() => parseDecimal('1.005', 2)).toThrow(/more than 2 decimals/);
    expect(() => parseDecimal(1.5e-7, 4)).toThrow(/more than 4 decimals/);
    expect(() => parseDecimal(0.1 + 0.2, 2)).toThrow(/more than 2 decimals/);
  });
  it('refuses thousands separators, words and non-finite numbers', () => {
    for (const bad of ['1,250.50', '1 250', 'abc', '', '1.', '.5', '1e3']) expect(() => parseDecimal(bad, 2), bad).toThrow(/not a decimal number/);
    expect(() => parseDecimal(Number.NaN, 2)).toThrow(/finite/);
    expect(() => parseDecimal(Infinity, 2)).toThrow(/finite/);
    expect(() => parseDecimal(null as never, 2)).toThrow(/number or a decimal string/);
  });
  it('carries the code the server answers with', () => {
    try { parseDecimal('x', 2, 'qty'); } catch (e) { expect((e as DecimalInputError).code).toBe('VALIDATION_FAILED'); expect((e as DecimalInputError).field).toBe('qty'); return; }
    throw new Error('did not throw');
  });
});

describe('rounding and formatting', () => {
  it('rounds half away from zero', () => {
    expect(roundDiv(5n, 10n)).toBe(1n);
    expect(roundDiv(4n, 10n)).toBe(0n);
    expect(roundDiv(15n, 10n)).toBe(2n);
    expect(roundDiv(-15n, 10n)).toBe(-2n);
    expect(roundDiv(-14n, 10n)).toBe(-1n);
  });
  it('formats back to baht', () => {
    expect(toNumber(125050n)).toBe(1250.5);
    expect(toNumber(-5n)).toBe(-0.05);
    expect(toDecimalString(5n)).toBe('0.05');
    expect(toDecimalString(-125050n)).toBe('-1250.50');
    expect(toDecimalString(7n, 0)).toBe('7');
  });
});
