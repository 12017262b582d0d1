import { describe, expect, it } from 'vitest';
import { certificateIncomeRows, withholdingTax } from './withholding-certificate.ts';

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

describe('certificateIncomeRows', () => {
  const options = ['40_1', '40_2', '40_8'].map((value) => ({ value, label: { th: value, en: value } }));
  it('fills the row of the income type paid, leaves the others blank, and totals that row exactly', () => {
    const { rows, totalPaid, totalTax } = certificateIncomeRows(options, { income_type: '40_8', paid_date: '2026-11-18', amount_paid: '10000.10', tax_amount: 300 });
    expect(rows.map((r) => r.value)).toEqual(['40_1', '40_2', '40_8']);
    expect(rows[2]).toMatchObject({ paidDate: '2026-11-18', amountPaid: 10000.1, taxWithheld: 300 });
    expect(rows.slice(0, 2).every((r) => r.amountPaid === null && r.paidDate === null)).toBe(true);
    expect([totalPaid, totalTax]).toEqual([10000.1, 300]);
  });
  it('falls back to the certificate date when no date paid is set, and totals 0 for a type the form has no row for', () => {
    expect(certificateIncomeRows(options, { income_type: '40_1', doc_date: '2026-11-01', amount_paid: 5 }).rows[0]!.paidDate).toBe('2026-11-01');
    expect(certificateIncomeRows(options, { income_type: 'x', amount_paid: 5, tax_amount: 1 })).toMatchObject({ totalPaid: 0, totalTax: 0 });
  });
});
