import { describe, expect, it } from 'vitest';
import { businessIsoTime } from './business-time.ts';

describe('businessIsoTime', () => {
  it('writes the business wall clock with its offset', () => {
    expect(businessIsoTime(new Date('2026-12-31T17:30:05.123Z'), 'Asia/Bangkok')).toBe('2027-01-01T00:30:05+07:00');
    expect(businessIsoTime(new Date('2026-07-01T12:00:00Z'), 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(businessIsoTime(new Date('2026-01-15T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-15T05:30:00+05:30');
    expect(businessIsoTime(new Date('2026-01-15T00:00:00Z'), 'UTC')).toBe('2026-01-15T00:00:00+00:00');
  });
});
