import { describe, expect, it } from 'vitest';
import { addProduct, figures, payState, quickCash, readQty, setQty, unitAllowsDecimals } from './register-cart.ts';

const tape = { id: 1, code: 'P1', name_th: 'เทป', price: 120 };
const film = { id: 2, code: 'P2', name_th: 'ฟิล์ม', price: 45.5 };

describe('the register cart', () => {
  it('adds a scanned product, or one more of it; changes and removes quantities', () => {
    let lines = addProduct([], tape);
    lines = addProduct(lines, film);
    lines = addProduct(lines, tape);
    expect(lines.map((l) => [l.code, l.qty])).toEqual([['P1', 2], ['P2', 1]]);
    lines = setQty(lines, 1, 3);
    expect(lines[1]!.qty).toBe(3);
    expect(setQty(lines, 0, 0).map((l) => l.code)).toEqual(['P2']);
    expect(setQty(lines, 0, Number.NaN)).toBe(lines);
  });

  it('shows the server\'s arithmetic: item promotion, VAT included, change from cash', () => {
    const promo = { id: 9, promotion_type: 'item_discount' as const, product_id: 1, discount_type: 'percent' as const, discount_value: 10, start_date: '2026-01-01', end_date: '2026-12-31', is_publish: true };
    const f = figures([{ product_id: 1, code: 'P1', name: 'เทป', price: 120, qty: 3 }], [promo], '2026-11-20', null);
    expect(f).toMatchObject({ subtotal: 324, total: 324, vat: 21.2, beforeVat: 302.8 });
    expect(f.lines[0]).toEqual({ discount: 36, amount: 324, promotion_id: 9 });
    expect(payState(324, [{ payment_method_id: 1, amount: '300', is_cash: true }, { payment_method_id: 2, amount: '100', is_cash: false }])).toEqual({ paid: 400, change: 76, due: 0, problem: null });
    expect(payState(324, [{ payment_method_id: 1, amount: '', is_cash: true }]).problem).toBe('underpaid');
  });

  it('a VAT-exempt product (its vat_type) carries no VAT: the total shows the exempt part', () => {
    const rice = { id: 3, code: 'P3', name_th: 'ข้าวสาร', price: 50, vat_type: 'exempt' };
    const lines = addProduct(addProduct(addProduct([], tape), rice), rice);
    expect(lines.map((l) => l.exempt)).toEqual([false, true]);
    // 120.00 taxed (VAT 7.85) + 2 × 50.00 exempt: as engine/pos/promotion-math.test.ts example 11
    expect(figures(lines, [], '2026-11-20', null)).toMatchObject({ total: 220, vat: 7.85, beforeVat: 212.15, exempt: 100 });
  });

  it('reads a typed quantity: an empty box is an edit in progress, 0 asks, a counted unit takes no fraction', () => {
    expect(readQty('', false)).toEqual({ kind: 'editing' });
    expect(readQty('3', false)).toEqual({ kind: 'qty', qty: 3 });
    expect(readQty('0', false)).toEqual({ kind: 'zero' });
    expect(readQty('1.5', false)).toEqual({ kind: 'no_decimals' });
    expect(readQty('1.5', true)).toEqual({ kind: 'qty', qty: 1.5 });
    expect(readQty('1.', true)).toEqual({ kind: 'qty', qty: 1 });
    expect(readQty('-2', true)).toEqual({ kind: 'invalid' });
    expect(readQty('abc', true)).toEqual({ kind: 'invalid' });
    expect(unitAllowsDecimals('กก.')).toBe(true);
    expect(unitAllowsDecimals('kg')).toBe(true);
    expect(unitAllowsDecimals('เมตร')).toBe(true);
    expect(unitAllowsDecimals('แพ็ค')).toBe(false);
    expect(unitAllowsDecimals('ชิ้น')).toBe(false);
    expect(unitAllowsDecimals(null)).toBe(false);
  });

  it('offers the next banknote of each kind above the amount due', () => {
    expect(quickCash(261.5)).toEqual([280, 300, 500, 1000]);
    expect(quickCash(45.5)).toEqual([60, 50, 100, 500, 1000].sort((a, b) => a - b));
    // exactly a note: that note is the exact amount, not a quick-cash button
    expect(quickCash(100)).toEqual([500, 1000]);
    expect(quickCash(1000)).toEqual([]);
    expect(quickCash(0)).toEqual([]);
  });
});
