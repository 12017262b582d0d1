/** The worked examples of docs/pos.md, "Returns of part of a sale". */
import { describe, expect, it } from 'vitest';
import { refundSplit, returnFigures, type SaleLineState } from './return-math.ts';

const q = (n: number) => BigInt(Math.round(n * 10_000));
const s = (baht: number) => BigInt(Math.round(baht * 100));
const VAT7 = 700n;

describe('returns of part of a sale', () => {
  // 3 × 120.00 less 10 % = 324.00 and 2 × 45.50 = 91.00: 415.00, VAT 27.15
  const sale = { total: s(415), vat: s(27.15), vatRate: VAT7 };
  const lines = (returned: [number, number] = [0, 0]): SaleLineState[] => [
    { qty: q(3), amount: s(324), returned: q(returned[0]) },
    { qty: q(2), amount: s(91), returned: q(returned[1]) },
  ];

  it('one unit of a discounted line: its share, VAT included in it', () => {
    const r = returnFigures(lines(), [q(1), 0n], sale, { amount: 0n, vat: 0n });
    // 324.00 / 3 = 108.00; VAT 108 × 7 / 107 = 7.065… → 7.07
    expect(r).toEqual({ amount: s(108), vat: s(7.07), totalReturned: s(108), totalVat: s(7.07), complete: false });
  });

  it('the rest afterwards: the returns add up to the sale exactly', () => {
    const r = returnFigures(lines([1, 0]), [q(2), q(2)], sale, { amount: s(108), vat: s(7.07) });
    expect(r).toEqual({ amount: s(307), vat: s(20.08), totalReturned: s(415), totalVat: s(27.15), complete: true });
  });

  it('a bill discount is given back in proportion', () => {
    // 10 × 105.00 + 1 × 200.00 = 1,250.00 less 5 % = 1,187.50; the first line's share 1,050 / 1,250 of it = 997.50
    const bill = { total: s(1187.5), vat: s(77.69), vatRate: VAT7 };
    const r = returnFigures([{ qty: q(10), amount: s(1050), returned: 0n }, { qty: q(1), amount: s(200), returned: 0n }], [q(4), 0n], bill, { amount: 0n, vat: 0n });
    // 4 / 10 of 997.50 = 399.00; VAT 399 × 7 / 107 = 26.102… → 26.10
    expect(r).toMatchObject({ amount: s(399), vat: s(26.1), complete: false });
  });

  it('an exempt line gives back no VAT', () => {
    // 120.00 taxed (VAT 7.85) + 2 × 50.00 exempt = 220.00: one exempt unit is 50.00 with no VAT in it
    const mixed: SaleLineState[] = [{ qty: q(1), amount: s(120), returned: 0n }, { qty: q(2), amount: s(100), returned: 0n, exempt: true }];
    const sold = { total: s(220), vat: s(7.85), vatRate: VAT7 };
    expect(returnFigures(mixed, [0n, q(1)], sold, { amount: 0n, vat: 0n })).toMatchObject({ amount: s(50), vat: 0n });
    expect(returnFigures(mixed, [q(1), 0n], sold, { amount: 0n, vat: 0n })).toMatchObject({ amount: s(120), vat: s(7.85) });
  });

  it('half a satang rounds up; a fraction of a unit counts', () => {
    // 1 × 33.33: a third of a unit is 11.11, two thirds 22.22; 0.5 of 0.01 → 0.01
    const r = returnFigures([{ qty: q(3), amount: s(33.33), returned: 0n }], [q(1)], { total: s(33.33), vat: s(2.18), vatRate: VAT7 }, { amount: 0n, vat: 0n });
    expect(r.amount).toBe(s(11.11));
    expect(returnFigures([{ qty: q(2), amount: s(0.01), returned: 0n }], [q(1)], { total: s(0.01), vat: 0n, vatRate: VAT7 }, { amount: 0n, vat: 0n }).amount).toBe(1n);
  });

  it('gives the money back by the sale\'s payments: cash first, at most what the drawer kept, then the others', () => {
    // 324.00 paid 200.00 cash + 224.00 transfer: change 100.00, so the drawer kept 100.00
    const payments = [{ methodId: 1, type: 'cash', amount: s(200) }, { methodId: 2, type: 'transfer', amount: s(224) }];
    expect(refundSplit(s(150), payments, s(100), new Map())).toEqual([{ methodId: 1, type: 'cash', amount: s(100) }, { methodId: 2, type: 'transfer', amount: s(50) }]);
    // a second return: the cash is given back already
    expect(refundSplit(s(50), payments, s(100), new Map([[1, s(100)], [2, s(50)]]))).toEqual([{ methodId: 2, type: 'transfer', amount: s(50) }]);
    // paid by transfer first, cash after: cash still goes back first
    expect(refundSplit(s(30), [...payments].reverse(), s(100), new Map())).toEqual([{ methodId: 1, type: 'cash', amount: s(30) }]);
    expect(() => refundSplit(s(400), payments, s(100), new Map())).toThrow(/cannot give back/);
  });
});
