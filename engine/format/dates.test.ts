import { describe, expect, it } from 'vitest';
import { formatIsoMonth } from './dates.ts';

describe('formatIsoMonth', () => {
  it('reads a month in the Buddhist era in Thai, Western in English', () => {
    expect(formatIsoMonth('2026-11', 'th')).toBe('พ.ย. 2569');
    expect(formatIsoMonth('2026-01', 'th', true)).toBe('มกราคม 2569');
    expect(formatIsoMonth('2026-12', 'en')).toBe('Dec 2026');
  });
  it('leaves what is not a month alone', () => {
    expect(formatIsoMonth('2026-13', 'th')).toBeNull();
    expect(formatIsoMonth('2026-11-18', 'th')).toBeNull();
    expect(formatIsoMonth('P001', 'th')).toBeNull();
  });
});
