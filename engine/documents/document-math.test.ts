/**
 * The worked invoices of docs/documents.md: each expected figure was worked out by hand
 * (and re-checked with Python's decimal module, ROUND_HALF_UP), not copied from the code.
 */
import { describe, expect, it } from 'vitest';
import { allocate, computeDocument, computeDocumentSatang, type DocumentInput } from './document-math.ts';
import { DecimalInputError } from './decimal-value.ts';
import { vatRateOn } from './vat-rates.ts';

interface Worked {
  name: string;
  input: DocumentInput;
  expect: { subtotal: number; discount_amount: number; amount_before_vat: number; vat_amount: number; total_amount: number; wht_amount: number; net_amount: number };
  lines?: number[];
}

const worked: Worked[] = [
  { name: '1. VAT excluded, VAT lands on exactly half a satang (182.035)',
    input: { vat_type: 'exclude', items: [{ qty: 2, price: 1250.25 }, { qty: 1, price: 100 }] },
    expect: { subtotal: 2600.5, discount_amount: 0, amount_before_vat: 2600.5, vat_amount: 182.04, total_amount: 2782.54, wht_amount: 0, net_amount: 2782.54 },
    lines: [2500.5, 100] },
  { name: '2. VAT included, exact',
    input: { vat_type: 'include', items: [{ qty: 1, price: 1070 }] },
    expect: { subtotal: 1070, discount_amount: 0, amount_before_vat: 1000, vat_amount: 70, total_amount: 1070, wht_amount: 0, net_amount: 1070 } },
  { name: '3. VAT included, VAT rounded (100 × 7 / 107 = 6.542…)',
    input: { vat_type: 'include', items: [{ qty: 1, price: 100 }] },
    expect: { subtotal: 100, discount_amount: 0, amount_before_vat: 93.46, vat_amount: 6.54, total_amount: 100, wht_amount: 0, net_amount: 100 } },
  { name: '4. no VAT, document discount 10 % rounded half-up (9.999)',
    input: { vat_type: 'none', discount_percent: 10, items: [{ qty: 3, price: 33.33 }] },
    expect: { subtotal: 99.99, discount_amount: 10, amount_before_vat: 89.99, vat_amount: 0, total_amount: 89.99, wht_amount: 0, net_amount: 89.99 } },
  { name: '5. line discounts: 5 % of 59.97 = 2.9985 → 3.00; qty 1.5 × 10.01 = 15.015 → 15.02 less 0.02',
    input: { vat_type: 'exclude', items: [{ qty: 3, price: 19.99, discount_percent: 5 }, { qty: '1.5', price: '10.01', discount_amount: '0.02' }] },
    expect: { subtotal: 71.97, discount_amount: 0, amount_before_vat: 71.97, vat_amount: 5.04, total_amount: 77.01, wht_amount: 0, net_amount: 77.01 },
    lines: [56.97, 15] },
  { name: '6. service with WHT 3 %, VAT excluded',
    input: { vat_type: 'exclude', wht_rate: 3, items: [{ qty: 1, price: 10000 }] },
    expect: { subtotal: 10000, discount_amount: 0, amount_before_vat: 10000, vat_amount: 700, total_amount: 10700, wht_amount: 300, net_amount: 10400 } },
  { name: '7. transport with WHT 1 % after a document discount amount',
    input: { vat_type: 'exclude', wht_rate: 1, discount_amount: 234.56, items: [{ qty: 2, price: 2500 }, { qty: 1, price: 1234.56 }] },
    expect: { subtotal: 6234.56, discount_amount: 234.56, amount_before_vat: 6000, vat_amount: 420, total_amount: 6420, wht_amount: 60, net_amount: 6360 } },
  { name: '8. rent with WHT 5 %, VAT included (WHT on the pre-VAT 5,000)',
    input: { vat_type: 'include', wht_rate: 5, items: [{ qty: 1, price: 5350 }] },
    expect: { subtotal: 5350, discount_amount: 0, amount_before_vat: 5000, vat_amount: 350, total_amount: 5350, wht_amount: 250, net_amount: 5100 } },
  { name: '9. WHT per line: goods none, service 3 %, advertising 2 %',
    input: { vat_type: 'exclude', items: [{ qty: 10, price: 150 }, { qty: 1, price: 2000, wht_rate: 3 }, { qty: 1, price: 1000, wht_rate: 2 }] },
    expect: { subtotal: 4500, discount_amount: 0, amount_before_vat: 4500, vat_amount: 315, total_amount: 4815, wht_amount: 80, net_amount: 4735 } },
  { name: '10. four lines each at half a satang (2.5 × 12.25 = 30.625 → 30.63); VAT once on the total: 8.58, not 4 × 2.14',
    input: { vat_type: 'exclude', items: Array.from({ length: 4 }, () => ({ qty: 2.5, price: 12.25 })) },
    expect: { subtotal: 122.52, discount_amount: 0, amount_before_vat: 122.52, vat_amount: 8.58, total_amount: 131.1, wht_amount: 0, net_amount: 131.1 },
    lines: [30.63, 30.63, 30.63, 30.63] },
  { name: '11. document discount 10 % shared over lines, WHT 3 % on the document',
    input: { vat_type: 'exclude', discount_percent: 10, wht_rate: 3, items: [{ qty: 1, price: 100 }, { qty: 1, price: 200 }] },
    expect: { subtotal: 300, discount_amount: 30, amount_before_vat: 270, vat_amount: 18.9, total_amount: 288.9, wht_amount: 8.1, net_amount: 280.8 } },
  { name: '12. VAT included, discount 100 shared 66.67/33.33, WHT 3 % on one line only',
    input: { vat_type: 'include', discount_amount: 100, items: [{ qty: 1, price: 1000, wht_rate: 3 }, { qty: 1, price: 500 }] },
    expect: { subtotal: 1500, discount_amount: 100, amount_before_vat: 1308.41, vat_amount: 91.59, total_amount: 1400, wht_amount: 26.17, net_amount: 1373.83 } },
  { name: '13. VAT rate of another period (10 %), excluded',
    input: { vat_type: 'exclude', vat_rate: vatRateOn('1998-06-30'), items: [{ qty: 1, price: 99.95 }] },
    expect: { subtotal: 99.95, discount_amount: 0, amount_before_vat: 99.95, vat_amount: 10, total_amount: 109.95, wht_amount: 0, net_amount: 109.95 } },
];

describe('worked Thai invoices (docs/documents.md)', () => {
  it.each(worked)('$name', ({ input, expect: e, lines }) => {
    const t = computeDocument(input);
    expect({
      subtotal: t.subtotal, discount_amount: t.discount_amount, amount_before_vat: t.amount_before_vat, vat_amount: t.vat_amount,
      total_amount: t.total_amount, wht_amount: t.wht_amount, net_amount: t.net_amount,
    }).toEqual(e);
    if (lines) expect(t.items.map((l) => l.amount)).toEqual(lines);
  });

  it('shares of the document discount and of the pre-VAT amount add up exactly', () => {
    for (const w of worked) {
      const t = computeDocumentSatang(w.input);
      expect(t.items.reduce((a, l) => a + l.document_discount_share, 0n), w.name).toBe(t.discount_amount);
      expect(t.items.reduce((a, l) => a + l.amount_before_vat, 0n), w.name).toBe(t.amount_before_vat);
    }
    const t = computeDocument(worked[11]!.input);
    expect(t.items.map((l) => l.document_discount_share)).toEqual([66.67, 33.33]);
    expect(t.items.map((l) => l.amount_before_vat)).toEqual([872.27, 436.14]);
    expect(t.wht_groups).toEqual([{ rate: 3, base: 872.27, amount: 26.17 }]);
  });

  it('a line rate overrides the document rate, and each rate is rounded once on its group', () => {
    const t = computeDocument({ vat_type: 'none', wht_rate: 3, items: [{ qty: 1, price: 0.5 }, { qty: 1, price: 0.5 }, { qty: 1, price: 100, wht_rate: 1 }] });
    // 3 % of 1.00 = 0.03 once (per line it would be 0.02 + 0.02); 1 % of 100 = 1
    expect(t.wht_groups).toEqual([{ rate: 1, base: 100, amount: 1 }, { rate: 3, base: 1, amount: 0.03 }]);
    expect(t.wht_amount).toBe(1.03);
  });
});

describe('refused input', () => {
  const base = { vat_type: 'exclude' as const, items: [{ qty: 1, price: 100 }] };
  it('withholding rates other than 1, 2, 3, 5 %', () => {
    expect(() => computeDocument({ ...base, wht_rate: 4 })).toThrow(/wht_rate must be one of 1, 2, 3, 5/);
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: 1, price: 1, wht_rate: 1.5 }] })).toThrow(/items\[0\]\.wht_rate has more than 0 decimals/);
    expect(computeDocument({ ...base, wht_rate: 0 }).wht_amount).toBe(0);
  });
  it('excess precision, never rounded', () => {
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: 1, price: 12.3400000001 }] })).toThrow(/items\[0\]\.price has more than 2 decimals/);
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: 1.00001, price: 1 }] })).toThrow(/items\[0\]\.qty has more than 4 decimals/);
    expect(() => computeDocument({ ...base, discount_percent: 3.333 })).toThrow(/discount_percent has more than 2 decimals/);
  });
  it('both kinds of discount, discounts above the amount, negatives, unknown VAT type', () => {
    expect(() => computeDocument({ ...base, discount_percent: 1, discount_amount: 1 })).toThrow(/cannot both be given/);
    expect(() => computeDocument({ ...base, discount_amount: 100.01 })).toThrow(/larger than the amount/);
    expect(() => computeDocument({ ...base, discount_percent: 101 })).toThrow(/between 0 and 100/);
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: -1, price: 1 }] })).toThrow(/qty must not be negative/);
    expect(() => computeDocument({ vat_type: 'gross' as never, items: [] })).toThrow(DecimalInputError);
  });
  it('a rounding adjustment adds to its line, never takes away, and is at most 1.00', () => {
    const t = computeDocument({ vat_type: 'exclude', items: [{ qty: 1.4, price: 0.33, rounding_amount: 0.01 }] });
    expect(t).toMatchObject({ subtotal: 0.47, amount_before_vat: 0.47, vat_amount: 0.03, total_amount: 0.5 });
    expect(t.items[0]).toMatchObject({ gross: 0.46, discount: 0, amount: 0.47 });
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: 1, price: 1, rounding_amount: -0.01 }] })).toThrow(/rounding_amount must not be negative/);
    expect(() => computeDocument({ vat_type: 'none', items: [{ qty: 1, price: 1, rounding_amount: 1.01 }] })).toThrow(/rounding_amount is rounding, so at most 1.00/);
  });
});

describe('helpers', () => {
  it('allocate splits exactly, leftovers to the largest remainders', () => {
    expect(allocate(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(allocate(10n, [0n, 0n])).toEqual([10n, 0n]);
    expect(allocate(0n, [5n, 7n])).toEqual([0n, 0n]);
  });
  it('vatRateOn follows the date of effect', () => {
    expect(vatRateOn('1997-08-15')).toBe(7);
    expect(vatRateOn('1997-08-16')).toBe(10);
    expect(vatRateOn('1999-04-01')).toBe(7);
    expect(vatRateOn('2026-11-23')).toBe(7);
    expect(vatRateOn('2030-01-01', [{ from: '2000-01-01', rate: 7 }, { from: '2030-01-01', rate: 8 }])).toBe(8);
    expect(() => vatRateOn('23/11/2026')).toThrow(/YYYY-MM-DD/);
  });
  it('an empty document totals zero', () => {
    expect(computeDocument({ vat_type: 'exclude', items: [] }).total_amount).toBe(0);
  });
});
