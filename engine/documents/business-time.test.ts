import { describe, expect, it } from 'vitest';
import { assertTimeZone, businessDate, businessToday, parseBusinessDate } from './business-time.ts';

describe('business time', () => {
  it('00:30 on 1 January in Bangkok (17:30 UTC on 31 December) is the new year', () => {
    const now = new Date('2026-12-31T17:30:00Z');
    expect(businessDate(now)).toEqual({ year: 2027, month: 1, day: 1 });
    expect(businessToday(now)).toBe('2027-01-01');
    expect(businessToday(now, 'UTC')).toBe('2026-12-31');
  });
  it('the day changes at midnight Bangkok time, 17:00 UTC', () => {
    expect(businessToday(new Date('2026-11-22T16:59:59.999Z'))).toBe('2026-11-22');
    expect(businessToday(new Date('2026-11-22T17:00:00Z'))).toBe('2026-11-23');
  });
  it('follows a configured zone', () => {
    expect(businessToday(new Date('2026-03-01T02:00:00Z'), 'America/New_York')).toBe('2026-02-28');
  });
  it('refuses unknown zones and bad dates', () => {
    expect(assertTimeZone('Asia/Bangkok')).toBe('Asia/Bangkok');
    expect(() => assertTimeZone('Mars/Olympus')).toThrow(/not a time zone/);
    expect(parseBusinessDate('2027-01-01')).toEqual({ year: 2027, month: 1, day: 1 });
    expect(() => parseBusinessDate('1/1/2027')).toThrow(/YYYY-MM-DD/);
  });
});
