import { describe, expect, it } from 'vitest';
import { bangkokInputToIso, formatIsoDate, formatIsoDateTime, formatLocal, isoToBangkokInput, parseDateText } from './thai-dates.ts';

describe('one date presentation', () => {
  it('Thai shows Buddhist-era years, English Western years', () => {
    expect(formatIsoDate('2026-11-18', 'th')).toBe('18 พ.ย. 2569');
    expect(formatIsoDate('2026-11-18', 'en')).toBe('18 Nov 2026');
    expect(formatLocal(new Date(2026, 0, 5), 'th')).toBe('5 ม.ค. 2569');
  });

  it('shows instants in Bangkok time, whatever the browser zone', () => {
    expect(formatIsoDateTime('2026-11-18T20:30:00.000Z', 'th')).toBe('19 พ.ย. 2569 03:30');
    expect(isoToBangkokInput('2026-11-18T20:30:00.000Z')).toBe('2026-11-19T03:30');
    expect(bangkokInputToIso('2026-11-19T03:30')).toBe('2026-11-18T20:30:00.000Z');
  });

  it('reads typed dates in either era and either language', () => {
    const ymd = (d: Date | null) => d && [d.getFullYear(), d.getMonth() + 1, d.getDate()];
    expect(ymd(parseDateText('18/11/2569'))).toEqual([2026, 11, 18]);
    expect(ymd(parseDateText('18 พ.ย. 2569'))).toEqual([2026, 11, 18]);
    expect(ymd(parseDateText('18 Nov 2026'))).toEqual([2026, 11, 18]);
    expect(ymd(parseDateText('2026-11-18'))).toEqual([2026, 11, 18]);
    expect(parseDateText('18 พ.ย. 2569 14:05')?.getHours()).toBe(14);
    expect(parseDateText('31/02/2569')).toBeNull();
    expect(parseDateText('hello')).toBeNull();
  });
});
