import { describe, expect, it } from 'vitest';
import { sampleForPattern, PatternNotSupported } from './regex-sample.ts';
import { thaiTaxId } from './sample-records.ts';
import { isValidThaiTaxId } from '../../engine/validation/thai-tax-id.ts';

describe('sampleForPattern (used to build sample records)', () => {
  it.each([
    ['^[A-Za-z0-9][A-Za-z0-9_.\\-/]*$', 0, 20],
    ['^[0-9]{5}$', 5, 5],
    ['^[0-9-]+$', 0, 30],
    ['^[0-9]{10}$|^[0-9]{13}$', 0, 15],
    ['^[A-Z0-9-]*$', 0, 10],
    ['^[0-9A-Za-z\\-]+$', 0, 50],
    ['^[a-z][a-z0-9_]*$', 0, 20],
    ['^(?:TH|JP)-\\d{3}[^a-z]?$', 0, 20],
  ])('%s gives matching, distinct values within the length', (pattern, min, max) => {
    const values = [1, 2, 3, 1234].map((seed) => sampleForPattern(pattern, seed, min, max));
    for (const v of values) {
      expect(v).toMatch(new RegExp(pattern, 'u'));
      expect(v.length).toBeGreaterThanOrEqual(min);
      expect(v.length).toBeLessThanOrEqual(max);
    }
    expect(new Set(values).size).toBe(values.length);
  });

  it('fails loudly on what it cannot generate', () => {
    expect(() => sampleForPattern('^(?=a)b$', 1)).toThrow(PatternNotSupported);
    expect(() => sampleForPattern('^\\p{L}+$', 1)).toThrow(PatternNotSupported);
    expect(() => sampleForPattern('^[0-9]{5}$', 1, 0, 3)).toThrow(/length 0..3/);
  });

  it('thaiTaxId builds valid ids', () => {
    for (const seed of [0, 1, 99, 123456789]) expect(isValidThaiTaxId(thaiTaxId(seed))).toBe(true);
  });
});
