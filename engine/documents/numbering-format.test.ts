import { describe, expect, it } from 'vitest';
import { fieldTokens, formatNumber, numberMatcher, parseBusinessDate, seriesKey, seriesOrderKey } from './numbering-format.ts';
import { businessDate, businessToday, isTimeZone } from './business-time.ts';

const series = { field: 'no', prefix: 'BN', pattern: '{prefix}{YYYY}{MM}-{seq:4}', resetEvery: 'month' as const };
const date = { year: 2026, month: 11, day: 21 };

describe('numbering format', () => {
  it('renders every token', () => {
    expect(formatNumber(series, date, 7)).toBe('BN202611-0007');
    expect(formatNumber({ ...series, pattern: '{prefix}{YY}{MM}{DD}/{seq:3}' }, date, 12)).toBe('BN261121/012');
  });
  it('lets the sequence grow past its padding instead of wrapping', () => {
    expect(formatNumber(series, date, 123456)).toBe('BN202611-123456');
  });
  it('keys the counter by the reset period, and by scope when the series has one', () => {
    expect(seriesKey('billing_note', series, date)).toBe('billing_note:2026-11');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'year' }, date)).toBe('billing_note:2026');
    expect(seriesKey('billing_note', { ...series, resetEvery: 'never' }, date)).toBe('billing_note');
    expect(seriesKey('tax_invoice', series, date, 'your_company_id=2')).toBe('tax_invoice@your_company_id=2:2026-11');
  });
  it('reads the sequence back out of numbers of the same period only', () => {
    const m = numberMatcher(series, date);
    expect(m.prefix).toBe('BN202611-');
    expect(m.seqOf('BN202611-0006')).toBe(6);
    expect(m.seqOf('BN202611-12345')).toBe(12345);
    expect(m.seqOf('BN202610-0009')).toBeNull();
    expect(m.seqOf('BN202611-00x1')).toBeNull();
  });
  it('fills field tokens with the record\'s values, never reading a value as a token', () => {
    const tax = { ...series, prefix: 'IV', pattern: '{your_company_id.code}-{prefix}{YYYY}{MM}-{seq:4}' };
    expect(fieldTokens(tax.pattern)).toEqual(['your_company_id.code']);
    expect(fieldTokens('{prefix}{branch_code}{YY}{seq:3}')).toEqual(['branch_code']);
    expect(formatNumber(tax, date, 1, { 'your_company_id.code': 'TPT' })).toBe('TPT-IV202611-0001');
    expect(formatNumber(tax, date, 1, { 'your_company_id.code': '{MM}{seq:4}' })).toBe('MMseq:4-IV202611-0001');
    const m = numberMatcher(tax, date, { 'your_company_id.code': 'TPT' });
    expect(m.prefix).toBe('TPT-IV202611-');
    expect(m.seqOf('TPT-IV202611-0003')).toBe(3);
    expect(m.seqOf('TPF-IV202611-0003')).toBeNull();
  });
  it('keeps the order row of a series apart from its counters', () => {
    expect(seriesOrderKey('tax_invoice', '2')).toBe('tax_invoice@2!order');
    expect(seriesOrderKey('tax_invoice')).not.toBe(seriesKey('tax_invoice', { ...series, resetEvery: 'never' }, date));
  });
  it('reads a stored date as a business date', () => {
    expect(parseBusinessDate('2026-09-15')).toEqual({ year: 2026, month: 9, day: 15 });
    expect(parseBusinessDate(null)).toBeNull();
    expect(parseBusinessDate('15/09/2026')).toBeNull();
  });
});

describe('business time', () => {
  it('a moment belongs to the day it is in Bangkok, not in UTC', () => {
    const newYear = new Date('2026-12-31T17:30:00Z');
    expect(businessDate(newYear)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(businessToday(newYear)).toBe('2027-01-01');
    expect(businessToday(new Date('2026-12-31T16:59:59Z'))).toBe('2026-12-31');
    expect(businessToday(newYear, 'UTC')).toBe('2026-12-31');
  });
  it('gives the right day on either side of midnight, however close together and in whatever order it is asked', () => {
    const before = new Date('2026-12-31T16:59:59.999Z');
    const at = new Date('2026-12-31T17:00:00.000Z');
    expect(businessToday(new Date('2026-12-31T16:59:59.000Z'))).toBe('2026-12-31');
    expect(businessToday(before)).toBe('2026-12-31');
    expect(businessToday(at)).toBe('2027-01-01');
    expect(businessToday(before)).toBe('2026-12-31');
    expect(businessToday(at, 'UTC')).toBe('2026-12-31');
    expect(businessToday(at)).toBe('2027-01-01');
    // what a caller does with the answer does not change the next one
    const d = businessDate(at);
    d.year = 1999;
    expect(businessDate(at)).toEqual({ year: 2027, month: 1, day: 1 });
  });
  it('knows real time zone names', () => {
    expect(isTimeZone('Asia/Bangkok')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });
});
