import { describe, expect, it } from 'vitest';
import { withholdingTax } from './withholding-certificate.ts';

describe('withholdingTax', () => {
  it.each([
    [10000, 3, 300],
    [1234.56, 1, 12.35], // 12.3456 → 12.35
    [333.5, 3, 10.01], // 10.005 → 10.01: half a satang goes up
    [99.99, 5, 5], // 4.9995 → 5.00
    [1070, 2, 21.4],
    ['2500.50', 5, 125.03], // 125.025 → 125.03
  ])('%s at %s %% is %s', (paid, rate, tax) => {
    expect(withholdingTax(paid, rate)).toBe(tax);
  });

  it('refuses other rates, negative and over-precise amounts', () => {
    expect(() => withholdingTax(100, 4)).toThrow(/1, 2, 3, 5/);
    expect(() => withholdingTax(-1, 3)).toThrow(/negative/);
    expect(() => withholdingTax(0.1 + 0.2, 3)).toThrow(/more than 2 decimals/);
  });

  it('is 0 while the amount or rate is not given yet', () => {
    expect(withholdingTax(null, 3)).toBe(0);
    expect(withholdingTax(100, null)).toBe(0);
  });
});
