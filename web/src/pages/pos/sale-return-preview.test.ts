import { describe, expect, it } from 'vitest';
import { previewReturn } from './sale-return-preview.ts';

// the sale of docs/pos.md ("Returns of part of a sale"), as the API answers it (baht and units, not scaled)
const sale = { total_amount: 415, vat_amount: 27.15, vat_rate: 7, change_amount: 100, returned_amount: 0, returned_vat: 0 };
const lines = [
  { id: 1, qty: 3, amount: 324, returned_qty: 0, vat_type: 'vat7' },
  { id: 2, qty: 2, amount: 91, returned_qty: 0, vat_type: 'vat7' },
];
const payments = [{ payment_method_id: 1, payment_type: 'cash', amount: 300 }, { payment_method_id: 2, payment_type: 'transfer', amount: 215 }];

describe('the return panel\'s preview of the money given back', () => {
  it('one of 3 units of the 10 %-off line: 108.00, VAT 7.07, all of it cash (the drawer kept 200.00)', () => {
    expect(previewReturn(sale, lines, payments, [], [1, 0])).toEqual({ amount: 108, vat: 7.07, whole: false, refunds: [{ methodId: 1, type: 'cash', amount: 108 }] });
  });

  it('after that return, the rest is the whole sale: 307.00, VAT 20.08, cash up to what is left of the 200.00, then the transfer', () => {
    const after = { ...sale, returned_amount: 108, returned_vat: 7.07 };
    const returned = [{ ...lines[0]!, returned_qty: 1 }, lines[1]!];
    const p = previewReturn(after, returned, payments, [{ payment_method_id: 1, amount: 108 }], [2, 2]);
    expect(p).toMatchObject({ amount: 307, vat: 20.08, whole: true });
    expect(p.refunds).toEqual([{ methodId: 1, type: 'cash', amount: 92 }, { methodId: 2, type: 'transfer', amount: 215 }]);
  });
});
