import { describe, expect, it } from 'vitest';
import { formatNumber, numberShape, seriesKey, sequenceOf } from './numbering-format.ts';
import { businessDate } from './business-time.ts';

const series = { field: 'no', prefix: 'BN', pattern: '{prefix}{YYYY}{MM}-{seq:4}', resetEvery: 'month' as const };
const day = { year: 2026, month: 11, day: 21 };

describe('numbering format', () => {
  it('renders every token', () => {
    expect(formatNumber(series, day, 7)).toBe('BN202611-0007');
    expect(formatNumber({ ...series, pattern: '{prefix}{YY}{MM}{DD}/{seq:3}' }, day, 12)).toBe('BN261121/012');
  });
  it('lets the sequence grow past its padding instead of wrapping', () => {
    expect(formatNumber(series, day, 123456)).toBe('BN202611-123456');
  });
  it('keys the counter by the reset period', () => {
    expect(seriesKey('billing_note', series, day)).toBe('billing_note:2026-11');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'year' }, day)).toBe('billing_note:2026');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'never' }, day)).toBe('billing_note');
  });
  it('keys a per-field series by the field value as well', () => {
    const per = { ...series, perField: 'your_company_id' };
    expect(seriesKey('billing_note', per, day, 3)).toBe('billing_note@3:2026-11');
    expect(seriesKey('billing_note', per, day, null)).toBe('billing_note@:2026-11');
    expect(seriesKey('billing_note', per, day, 3)).not.toBe(seriesKey('billing_note', per, day, 4));
  });
  it('takes the period from the business calendar, not UTC', () => {
    // 17:30 UTC on 31 December is 00:30 on 1 January in Bangkok
    const d = businessDate(new Date('2026-12-31T17:30:00Z'), 'Asia/Bangkok');
    expect(formatNumber(series, d, 1)).toBe('BN202701-0001');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'year' }, d)).toBe('billing_note:2027');
  });
  it('finds the running number inside an existing number of the same period', () => {
    expect(numberShape(series, day)).toEqual({ head: 'BN202611-', tail: '' });
    expect(sequenceOf(series, day, 'BN202611-0042')).toBe(42);
    expect(sequenceOf(series, day, 'BN202611-123456')).toBe(123456);
    expect(sequenceOf(series, day, 'BN202610-0042')).toBeNull();
    expect(sequenceOf(series, day, 'BN202611-00x2')).toBeNull();
    expect(sequenceOf(series, day, 'BN202611-')).toBeNull();
    const tailed = { ...series, pattern: '{prefix}-{seq:3}/{YY}' };
    expect(numberShape(tailed, day)).toEqual({ head: 'BN-', tail: '/26' });
    expect(sequenceOf(tailed, day, 'BN-017/26')).toBe(17);
  });
});
