/**
 * Stored scaled integers back to the API's numbers (server/db/field-codec.ts unscale): the quick
 * division gives exactly the number the decimal text gives, over the whole range money uses.
 */
import { describe, expect, it } from 'vitest';
import { fromDb, unscale } from '../../server/db/field-codec.ts';

/** A deterministic spread of whole numbers, small to 10^15 (ten trillion baht in satang), both signs. */
function samples(): number[] {
  const out = [0, 1, -1, 5, 10, 99, 100, 101, 12345, 999_999_999_999_999, -999_999_999_999_999, 1e15];
  let x = 0x9e3779b9;
  for (let i = 0; i < 20_000; i++) {
    x = (Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) + i) >>> 0;
    const digits = 1 + (i % 15);
    const n = Math.floor((x / 2 ** 32) * 10 ** digits);
    out.push(i % 2 && n ? -n : n); // a database never answers -0
  }
  return out;
}

describe('unscale', () => {
  it('equals parsing the decimal text for every whole number up to 10^15 and every scale used', () => {
    for (const scale of [0, 1, 2, 3, 4, 6]) {
      for (const n of samples()) expect(unscale(n, scale)).toBe(scale === 0 ? n : Number((n / 10 ** scale).toFixed(scale)));
    }
    expect(unscale(123456, 2)).toBe(1234.56);
    expect(unscale(-5, 2)).toBe(-0.05);
    expect(unscale(7, 3)).toBe(0.007);
  });

  it('rounds a stored value that is not whole to the scale', () => {
    expect(unscale(1234.5, 2)).toBe(12.35);
    expect(unscale(1.0000001, 3)).toBe(0.001);
  });

  it('is what money and decimal fields decode with, from numbers and from PostgreSQL\'s bigint text', () => {
    expect(fromDb({ type: 'money', label: { th: 'ราคา', en: 'Price' } }, 36000)).toBe(360);
    expect(fromDb({ type: 'money', label: { th: 'ราคา', en: 'Price' } }, '123456789012')).toBe(1234567890.12);
    expect(fromDb({ type: 'decimal', scale: 3, label: { th: 'น้ำหนัก', en: 'Weight' } }, 1500)).toBe(1.5);
    expect(fromDb({ type: 'decimal', label: { th: 'จำนวน', en: 'Qty' } }, 42)).toBe(42);
  });
});
