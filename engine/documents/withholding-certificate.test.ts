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
  const options = ['40_1', '40_2', '40_4', '40_8'].map((value) => ({ value, label: { th: `${value.replace('_', '(')}) ประเภท ${value}`, en: value } }));
  it('prints the form\'s rows 1, 2, 3, 4 (ก), 4 (ข), 5 and 6, and fills the one paid', () => {
    const { rows, totalPaid, totalTax } = certificateIncomeRows(options, { income_type: '40_8', income_description: 'ค่าขนส่งสินค้า', paid_date: '2026-11-18', amount_paid: '10000.10', tax_amount: 300 });
    expect(rows.map((r) => r.value)).toEqual(['1', '2', '3', '4a', '4b', '5', '6']);
    expect(rows[5]).toMatchObject({ paidDate: '2026-11-18', amountPaid: 10000.1, taxWithheld: 300 });
    expect(rows[5]!.label.th).toContain('ตามคำสั่งกรมสรรพากรที่ออกตามมาตรา 3 เตรส');
    // the type is named, then what the payment was for
    expect(rows[5]!.label.th).toContain('ประเภท 40_8 — ค่าขนส่งสินค้า');
    expect(rows.filter((r) => r.value !== '5').every((r) => r.amountPaid === null && r.paidDate === null)).toBe(true);
    expect([totalPaid, totalTax]).toEqual([10000.1, 300]);
  });
  it('puts 40(4) on 4 (ก) interest, or on 4 (ข) dividends with the tax-credit rate', () => {
    expect(certificateIncomeRows(options, { income_type: '40_4', amount_paid: 100 }).rows.find((r) => r.amountPaid !== null)!.value).toBe('4a');
    const div = certificateIncomeRows(options, { income_type: '40_4', income_4_kind: 'dividend', dividend_credit_rate: 20, amount_paid: 100 }).rows.find((r) => r.amountPaid !== null)!;
    expect(div.value).toBe('4b');
    expect(div.label.th).toContain('เครดิตภาษีในอัตราร้อยละ 20');
  });
  it('falls back to the certificate date when no date paid is set, and totals 0 for a type the form has no row for', () => {
    expect(certificateIncomeRows(options, { income_type: '40_1', doc_date: '2026-11-01', amount_paid: 5 }).rows[0]!.paidDate).toBe('2026-11-01');
    expect(certificateIncomeRows(options, { income_type: 'x', amount_paid: 5, tax_amount: 1 })).toMatchObject({ totalPaid: 0, totalTax: 0 });
  });
});
