/**
 * Issue 31 §1: the document discount spread over the lines (remainder on the last line), a line's
 * part of the document total, and the parts of a line taken in several goes; the worked example of
 * docs/documents.md, "Carrying discounts", worked out by hand.
 */
import { describe, expect, it } from 'vitest';
import { computeDocument, computeDocumentSatang, shareOfTake, spread } from './document-math.ts';
import { documentTotals } from './document-totals.ts';

describe('spreading', () => {
  it('rounds the running total half-up, so the last line takes the remainder and none goes negative', () => {
    // 100 over three equal lines: 33.33, 33.33 (66.67 − 33.33 = 33.34 rounds the running total), the last what is left
    expect(spread(10000n, [1n, 1n, 1n])).toEqual([3333n, 3334n, 3333n]);
    // a free last line takes nothing, and a discount of 0.05 over 1.00 / 1.00 / 1.00 / 0 is 0.02, 0.01, 0.02, 0
    expect(spread(5n, [100n, 100n, 100n, 0n])).toEqual([2n, 1n, 2n, 0n]);
    expect(spread(0n, [5n, 7n])).toEqual([0n, 0n]);
    expect(spread(10n, [0n, 0n])).toEqual([0n, 10n]);
  });

  it('a line taken in parts brings the part of a figure for those units; the parts add up exactly', () => {
    // 100.00 of a line of 3 units taken 1 + 1 + 1: 33.33, 33.34, 33.33
    const parts = [shareOfTake(10000n, 3n, 0n, 1n), shareOfTake(10000n, 3n, 1n, 1n), shareOfTake(10000n, 3n, 2n, 1n)];
    expect(parts).toEqual([3333n, 3334n, 3333n]);
    expect(shareOfTake(20000n, 20000n, 0n, 10000n)).toBe(10000n);
    expect(shareOfTake(999n, 7n, 3n, 4n) + shareOfTake(999n, 7n, 0n, 3n)).toBe(999n);
  });
});

describe('the order of issue 31', () => {
  const order = {
    vat_type: 'exclude' as const, discount_percent: 10, wht_rate: 3,
    items: [{ qty: 10, price: 100 }, { qty: 2, price: 500, discount_amount: 200 }],
  };

  it('totals 1,733.40: 1,800 less 180, VAT 113.40, WHT 48.60', () => {
    const t = computeDocument(order);
    expect(t).toMatchObject({ subtotal: 1800, discount_amount: 180, amount_before_vat: 1620, vat_amount: 113.4, total_amount: 1733.4, wht_amount: 48.6, net_amount: 1684.8 });
    expect(t.items.map((l) => [l.amount, l.document_discount_share, l.total_share])).toEqual([[1000, 100, 963], [800, 80, 770.4]]);
  });

  it('the lines\' parts of the total add up to it exactly, whatever the rounding', () => {
    const odd = { vat_type: 'exclude' as const, discount_amount: 0.05, items: [{ qty: 1, price: 0.33 }, { qty: 3, price: 0.33 }, { qty: 1, price: 1.01 }] };
    for (const input of [order, odd, { ...odd, vat_type: 'include' as const }, { ...odd, vat_type: 'none' as const }]) {
      const t = computeDocumentSatang(input);
      expect(t.items.reduce((a, l) => a + l.total_share, 0n)).toBe(t.total_amount);
      expect(t.items.reduce((a, l) => a + l.document_discount_share, 0n)).toBe(t.discount_amount);
    }
  });

  it('a document measured by amount totals exactly its lines, VAT being the part of them that is VAT', () => {
    const bill = documentTotals({ vat_type: 'exclude', bill_date: '2026-11-02' }, [{ amount: 963 }, { amount: 770.4 }], '2026-11-02', true);
    expect(bill).toMatchObject({ subtotal: 1733.4, amount_before_vat: 1620, vat_amount: 113.4, total_amount: 1733.4, wht_amount: 0, net_amount: 1733.4 });
    const receipt = documentTotals({ vat_type: 'exclude', doc_date: '2026-11-02', wht_amount: 300 }, [{ amount: 10700 }], '2026-11-02', true);
    expect(receipt).toMatchObject({ total_amount: 10700, vat_amount: 700, wht_amount: 300, net_amount: 10400 });
    expect(() => documentTotals({ vat_type: 'none', wht_amount: 1.01 }, [{ amount: 1 }], '2026-11-02', true)).toThrow(/wht_amount is more than the total/);
  });
});
