import { describe, expect, it } from 'vitest';
import { formatNumber, seriesKey } from './numbering-format.ts';

const series = { field: 'no', prefix: 'BN', pattern: '{prefix}{YYYY}{MM}-{seq:4}', resetEvery: 'month' as const };
const date = new Date('2026-11-21T10:00:00Z');

describe('numbering format', () => {
  it('renders every token', () => {
    expect(formatNumber(series, date, 7)).toBe('BN202611-0007');
    expect(formatNumber({ ...series, pattern: '{prefix}{YY}{MM}{DD}/{seq:3}' }, date, 12)).toBe('BN261121/012');
  });
  it('lets the sequence grow past its padding instead of wrapping', () => {
    expect(formatNumber(series, date, 123456)).toBe('BN202611-123456');
  });
  it('keys the counter by the reset period', () => {
    expect(seriesKey('billing_note', series, date)).toBe('billing_note:2026-11');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'year' }, date)).toBe('billing_note:2026');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'never' }, date)).toBe('billing_note');
  });
});
