/** The worked examples of docs/pos.md ("Promotion arithmetic"), each checked here. */
import { describe, expect, it } from 'vitest';
import { baht, priceCart, promotionActive, settle, type PromotionRow } from './promotion-math.ts';

const DAY = '2026-11-20';
const promo = (id: number, p: Partial<PromotionRow>): PromotionRow => ({
  id, start_date: '2026-11-01', end_date: '2026-11-30', is_publish: true, sales_channel_id: null, requires_coupon: false, ...p,
});
const A = 1, B = 2, C = 3, D = 4;
const price = (items: { product_id: number; qty: number | string; price: number | string }[], promos: PromotionRow[], channelId: number | null = null) => {
  const c = priceCart(items, promos, { date: DAY, channelId });
  return {
    lines: c.lines.map((l) => [baht(l.gross), baht(l.discount), baht(l.amount), l.promotion_id]),
    subtotal: baht(c.subtotal), bill: baht(c.bill_discount), billPromo: c.bill_promotion_id,
    total: baht(c.total), vat: baht(c.vat_amount), before: baht(c.amount_before_vat),
  };
};

describe('promotion arithmetic (docs/pos.md)', () => {
  it('1. percent off an item: 3 × 120.00 less 10 % = 324.00, VAT included 21.20', () => {
    const r = price([{ product_id: A, qty: 3, price: 120 }], [promo(1, { promotion_type: 'item_discount', product_id: A, discount_type: 'percent', discount_value: 10 })]);
    expect(r.lines).toEqual([[360, 36, 324, 1]]);
    expect([r.subtotal, r.bill, r.total, r.vat, r.before]).toEqual([324, 0, 324, 21.2, 302.8]);
  });

  it('2. amount off each unit: 2 × 45.50 less 5.00 a unit = 81.00', () => {
    const r = price([{ product_id: B, qty: 2, price: 45.5 }], [promo(2, { promotion_type: 'item_discount', product_id: B, discount_type: 'amount', discount_value: 5 })]);
    expect(r.lines).toEqual([[91, 10, 81, 2]]);
  });

  it('3. a percent capped by its maximum: 15 % of 1,000.00 is 150.00, capped at 100.00', () => {
    const r = price([{ product_id: C, qty: 4, price: 250 }], [promo(3, { promotion_type: 'item_discount', product_id: C, discount_type: 'percent', discount_value: 15, max_discount: 100 })]);
    expect(r.lines).toEqual([[1000, 100, 900, 3]]);
  });

  it('4. buy 2 get 1: 7 units at 35.00 give 2 free (70.00); a part unit gives nothing', () => {
    const b2g1 = promo(4, { promotion_type: 'buy_x_get_y', product_id: D, buy_qty: 2, get_qty: 1 });
    expect(price([{ product_id: D, qty: 7, price: 35 }], [b2g1]).lines).toEqual([[245, 70, 175, 4]]);
    expect(price([{ product_id: D, qty: 2, price: 35 }], [b2g1]).lines).toEqual([[70, 0, 70, null]]);
    expect(price([{ product_id: D, qty: '2.5', price: 35 }], [b2g1]).lines).toEqual([[87.5, 0, 87.5, null]]);
  });

  it('5. bill discount over a threshold: 5 % of 1,250.00 = 62.50; VAT on 1,187.50 is 77.69', () => {
    const bill = promo(5, { promotion_type: 'bill_discount', discount_type: 'percent', discount_value: 5, min_purchase: 1000 });
    const r = price([{ product_id: A, qty: 10, price: 125 }], [bill]);
    expect([r.subtotal, r.bill, r.billPromo, r.total, r.vat, r.before]).toEqual([1250, 62.5, 5, 1187.5, 77.69, 1109.81]);
  });

  it('6. below the threshold no bill discount: 999.99 < 1,000.00', () => {
    const bill = promo(5, { promotion_type: 'bill_discount', discount_type: 'amount', discount_value: 50, min_purchase: 1000 });
    expect(price([{ product_id: A, qty: 1, price: 999.99 }], [bill]).bill).toBe(0);
    expect(price([{ product_id: A, qty: 1, price: 1000 }], [bill]).bill).toBe(50);
  });

  it('7. the threshold counts after item discounts', () => {
    const item = promo(1, { promotion_type: 'item_discount', product_id: A, discount_type: 'percent', discount_value: 10 });
    const bill = promo(5, { promotion_type: 'bill_discount', discount_type: 'amount', discount_value: 50, min_purchase: 1000 });
    // 10 × 105.00 = 1,050.00, less 10 % = 945.00: under 1,000
    expect(price([{ product_id: A, qty: 10, price: 105 }], [item, bill])).toMatchObject({ subtotal: 945, bill: 0, total: 945 });
  });

  it('8. the larger of two item promotions wins, per line; ties go to the smaller id', () => {
    const pct = promo(6, { promotion_type: 'item_discount', product_id: A, discount_type: 'percent', discount_value: 10 });
    const amt = promo(7, { promotion_type: 'item_discount', product_id: A, discount_type: 'amount', discount_value: 15 });
    // 10 % of 120 = 12 < 15 a unit
    expect(price([{ product_id: A, qty: 1, price: 120 }], [pct, amt]).lines).toEqual([[120, 15, 105, 7]]);
    // 10 % of 150 = 15 = 15: the smaller id
    expect(price([{ product_id: A, qty: 1, price: 150 }], [amt, pct]).lines).toEqual([[150, 15, 135, 6]]);
  });

  it('9. half a satang rounds up: 12.5 % of 33.33 = 4.16625 → 4.17', () => {
    const r = price([{ product_id: A, qty: 1, price: 33.33 }], [promo(8, { promotion_type: 'item_discount', product_id: A, discount_type: 'percent', discount_value: 12.5 })]);
    expect(r.lines).toEqual([[33.33, 4.17, 29.16, 8]]);
  });

  it('10. only published promotions, within their dates, for the sale\'s channel, without a coupon', () => {
    const base = { promotion_type: 'item_discount' as const, product_id: A, discount_type: 'percent' as const, discount_value: 10 };
    expect(promotionActive(promo(1, base), DAY, null)).toBe(true);
    expect(promotionActive(promo(1, { ...base, is_publish: false }), DAY, null)).toBe(false);
    expect(promotionActive(promo(1, { ...base, end_date: '2026-11-19' }), DAY, null)).toBe(false);
    expect(promotionActive(promo(1, { ...base, start_date: '2026-11-21' }), DAY, null)).toBe(false);
    expect(promotionActive(promo(1, { ...base, start_date: DAY, end_date: DAY }), DAY, null)).toBe(true);
    expect(promotionActive(promo(1, { ...base, sales_channel_id: 9 }), DAY, 8)).toBe(false);
    expect(promotionActive(promo(1, { ...base, sales_channel_id: 9 }), DAY, 9)).toBe(true);
    expect(promotionActive(promo(1, { ...base, requires_coupon: true }), DAY, null)).toBe(false);
    expect(price([{ product_id: A, qty: 1, price: 100 }], [promo(1, { ...base, is_publish: false })]).lines).toEqual([[100, 0, 100, null]]);
  });
});

describe('VAT-exempt products (docs/pos.md)', () => {
  it('11. VAT only on the VAT-bearing lines: 120.00 taxed + 2 × 50.00 exempt = 220.00, VAT 7.85', () => {
    const c = priceCart([{ product_id: A, qty: 1, price: 120 }, { product_id: B, qty: 2, price: 50, vat_exempt: true }], [], { date: DAY });
    // 120 × 7 / 107 = 7.850… → 7.85; before VAT 220.00 − 7.85 = 212.15, of which 100.00 exempt
    expect([baht(c.total), baht(c.vat_amount), baht(c.amount_before_vat), baht(c.exempt_amount)]).toEqual([220, 7.85, 212.15, 100]);
  });

  it('12. a bill discount is shared by taxed and exempt lines before the VAT is taken', () => {
    const bill = promo(5, { promotion_type: 'bill_discount', discount_type: 'percent', discount_value: 5, min_purchase: 200 });
    const c = priceCart([{ product_id: A, qty: 1, price: 120 }, { product_id: B, qty: 2, price: 50, vat_exempt: true }], [bill], { date: DAY });
    // 5 % of 220.00 = 11.00: 6.00 on the taxed line (120/220, rounded), 5.00 on the exempt one; VAT 114 × 7 / 107 = 7.457… → 7.46
    expect([baht(c.bill_discount), baht(c.total), baht(c.vat_amount), baht(c.amount_before_vat), baht(c.exempt_amount)]).toEqual([11, 209, 7.46, 201.54, 95]);
    // no exempt line: the same figures as before exemption existed
    const all = priceCart([{ product_id: A, qty: 1, price: 120 }, { product_id: B, qty: 2, price: 50 }], [bill], { date: DAY });
    expect([baht(all.total), baht(all.vat_amount), baht(all.exempt_amount)]).toEqual([209, 13.67, 0]);
  });
});

describe('payments (docs/pos.md)', () => {
  const total = 32400n;
  it('cash gives change; several methods add up; non-cash may not pass the total', () => {
    expect(settle(total, [{ amount: 500, is_cash: true }])).toEqual({ paid: 50000n, change: 17600n, due: 0n, cash: 50000n, problem: null });
    expect(settle(total, [{ amount: 100, is_cash: true }, { amount: 224, is_cash: false }])).toMatchObject({ change: 0n, problem: null });
    expect(settle(total, [{ amount: 200, is_cash: true }, { amount: 224, is_cash: false }])).toMatchObject({ change: 10000n, problem: null });
    expect(settle(total, [{ amount: 400, is_cash: false }]).problem).toBe('overpaid_non_cash');
    expect(settle(total, [{ amount: 300, is_cash: true }])).toMatchObject({ due: 2400n, problem: 'underpaid' });
  });
});
