/**
 * Promotion arithmetic of a point-of-sale cart, exact to the satang (docs/pos.md has the worked examples).
 * Shared by the server, which is the authority on what a sale costs, and the register screen, which shows the
 * same figures live: both call `priceCart`. Pure: no clock, no I/O; the caller passes the business date.
 *
 * - Prices include VAT; VAT is taken once on the bill's total (computeDocumentSatang, vat_type include).
 * - An item promotion (`item_discount`, `buy_x_get_y`) names a product; each line gets the one that gives it the
 *   largest discount (ties: the smaller promotion id). A bill promotion (`bill_discount`) applies to the total after
 *   item discounts when it reaches `min_purchase`; the largest one wins.
 * - A promotion counts only while published, on a day within its dates, for the sale's channel (or every
 *   channel), and without a coupon (coupons are not taken at the register yet).
 */
import { parseDecimal, roundDiv, toNumber } from '../documents/decimal-value.ts';
import { computeDocumentSatang } from '../documents/document-math.ts';

type Dec = number | string;

export type PromotionType = 'item_discount' | 'buy_x_get_y' | 'bill_discount';

/** A promotion as stored (the API's JSON form: baht as numbers, dates as YYYY-MM-DD). */
export interface PromotionRow {
  id: number;
  code?: string;
  name?: string;
  promotion_type?: PromotionType | null;
  discount_type?: 'percent' | 'amount' | null;
  discount_value?: Dec | null;
  max_discount?: Dec | null;
  min_purchase?: Dec | null;
  product_id?: number | null;
  buy_qty?: number | null;
  get_qty?: number | null;
  start_date: string;
  end_date: string;
  is_publish?: boolean | null;
  sales_channel_id?: number | null;
  requires_coupon?: boolean | null;
}

/** `vat_exempt`: the product is exempt from VAT or zero-rated (its `vat_type`): no VAT is in its price. */
export interface CartLineInput { product_id: number; qty: Dec; price: Dec; vat_exempt?: boolean }

export interface PricedLine {
  product_id: number;
  /** Quantity × 10⁴ and price in satang, as read. */
  qty: bigint;
  price: bigint;
  gross: bigint;
  discount: bigint;
  amount: bigint;
  promotion_id: number | null;
}

export interface PricedCart {
  lines: PricedLine[];
  /** Σ line amounts (after item promotions). */
  subtotal: bigint;
  bill_discount: bigint;
  bill_promotion_id: number | null;
  total: bigint;
  vat_rate: number;
  vat_amount: bigint;
  amount_before_vat: bigint;
  /** What the VAT-exempt lines come to (after their share of the bill discount): no VAT in it. */
  exempt_amount: bigint;
}

const QTY = 4;
const SATANG = 2;
const QTY_ONE = 10n ** BigInt(QTY);
const money = (v: Dec | null | undefined, field: string): bigint => (v === null || v === undefined || v === '' ? 0n : parseDecimal(v, SATANG, field));

/** Whether a promotion counts on `date` for a sale of `channelId`. */
export function promotionActive(p: PromotionRow, date: string, channelId: number | null): boolean {
  if (!p.is_publish || p.requires_coupon) return false;
  if (p.start_date > date || p.end_date < date) return false;
  return p.sales_channel_id === null || p.sales_channel_id === undefined || p.sales_channel_id === channelId;
}

/** Percent (discount_value %, at most max_discount) or amount off `base`, never more than base. */
function offOf(p: PromotionRow, base: bigint, units: bigint): bigint {
  if (base <= 0n) return 0n;
  let off: bigint;
  if ((p.discount_type ?? 'percent') === 'percent') {
    const pct = parseDecimal(p.discount_value ?? 0, 2, 'discount_value');
    off = roundDiv(base * pct, 10_000n);
    const cap = money(p.max_discount, 'max_discount');
    if (cap > 0n && off > cap) off = cap;
  } else {
    // an amount promotion on an item is so much off each unit; on the bill, once
    off = roundDiv(money(p.discount_value, 'discount_value') * units, QTY_ONE);
  }
  return off > base ? base : off < 0n ? 0n : off;
}

/** The discount an item promotion gives one line (0 when it does not apply to it). */
export function itemDiscount(p: PromotionRow, line: { product_id: number; qty: bigint; price: bigint; gross: bigint }): bigint {
  if (p.product_id !== line.product_id) return 0n;
  if (p.promotion_type === 'item_discount') return offOf(p, line.gross, line.qty);
  if (p.promotion_type === 'buy_x_get_y') {
    const buy = BigInt(Math.max(0, Math.trunc(p.buy_qty ?? 0)));
    const get = BigInt(Math.max(0, Math.trunc(p.get_qty ?? 0)));
    if (buy <= 0n || get <= 0n) return 0n;
    // whole units only: of every buy + get units, get are free
    const units = line.qty / QTY_ONE;
    const free = (units / (buy + get)) * get;
    const off = free * line.price;
    return off > line.gross ? line.gross : off;
  }
  return 0n;
}

/** The discount a bill promotion gives a subtotal (0 below its minimum purchase). */
export function billDiscount(p: PromotionRow, subtotal: bigint): bigint {
  if (p.promotion_type !== 'bill_discount' && p.promotion_type !== undefined && p.promotion_type !== null) return 0n;
  if (subtotal < money(p.min_purchase, 'min_purchase') || subtotal <= 0n) return 0n;
  return offOf(p, subtotal, QTY_ONE);
}

/** Better: a larger discount, then the smaller id. */
const better = (a: { off: bigint; id: number }, b: { off: bigint; id: number } | null) => !b || a.off > b.off || (a.off === b.off && a.id < b.id);

/**
 * Prices a cart: each line's best item promotion, then the best bill promotion, then VAT (included) on the total.
 * `promotions` may hold every promotion; those not active on `date` for `channelId` are left out here.
 */
export function priceCart(items: CartLineInput[], promotions: PromotionRow[], opts: { date: string; channelId?: number | null; vatRate?: number }): PricedCart {
  const active = promotions.filter((p) => promotionActive(p, opts.date, opts.channelId ?? null));
  const itemPromos = active.filter((p) => p.promotion_type === 'item_discount' || p.promotion_type === 'buy_x_get_y');
  const billPromos = active.filter((p) => !p.promotion_type || p.promotion_type === 'bill_discount');
  const lines: PricedLine[] = items.map((it, i) => {
    const qty = parseDecimal(it.qty, QTY, `items[${i}].qty`);
    const price = parseDecimal(it.price, SATANG, `items[${i}].price`);
    const gross = roundDiv(qty * price, QTY_ONE);
    let best: { off: bigint; id: number } | null = null;
    for (const p of itemPromos) {
      const off = itemDiscount(p, { product_id: it.product_id, qty, price, gross });
      if (off > 0n && better({ off, id: p.id }, best)) best = { off, id: p.id };
    }
    const discount = best?.off ?? 0n;
    return { product_id: it.product_id, qty, price, gross, discount, amount: gross - discount, promotion_id: best?.id ?? null };
  });
  const subtotal = lines.reduce((a, l) => a + l.amount, 0n);
  let bill: { off: bigint; id: number } | null = null;
  for (const p of billPromos) {
    const off = billDiscount(p, subtotal);
    if (off > 0n && better({ off, id: p.id }, bill)) bill = { off, id: p.id };
  }
  const t = computeDocumentSatang({
    vat_type: 'include', vat_rate: opts.vatRate ?? 7, discount_amount: toNumber(bill?.off ?? 0n, SATANG),
    items: lines.map((l, i) => ({ qty: toNumber(l.qty, QTY), price: toNumber(l.price, SATANG), discount_amount: toNumber(l.discount, SATANG), vat_exempt: items[i]!.vat_exempt === true })),
  });
  const exempt = lines.reduce((a, l, i) => (items[i]!.vat_exempt ? a + t.items[i]!.total_share : a), 0n);
  return {
    lines, subtotal, bill_discount: bill?.off ?? 0n, bill_promotion_id: bill?.id ?? null,
    total: t.total_amount, vat_rate: t.vat_rate, vat_amount: t.vat_amount, amount_before_vat: t.amount_before_vat, exempt_amount: exempt,
  };
}

export interface PaymentInput { amount: Dec; is_cash: boolean }

/**
 * What a set of payments gives for a total: paid, change (only cash gives change: the non-cash payments may not
 * pass the total), and what is still due. `problem` names what is wrong, or is null.
 */
export function settle(total: bigint, payments: PaymentInput[]): { paid: bigint; change: bigint; due: bigint; cash: bigint; problem: null | 'underpaid' | 'overpaid_non_cash' } {
  let paid = 0n;
  let cash = 0n;
  payments.forEach((p, i) => {
    const a = parseDecimal(p.amount, SATANG, `payments[${i}].amount`);
    paid += a;
    if (p.is_cash) cash += a;
  });
  const nonCash = paid - cash;
  if (nonCash > total) return { paid, change: 0n, due: 0n, cash, problem: 'overpaid_non_cash' };
  if (paid < total) return { paid, change: 0n, due: total - paid, cash, problem: 'underpaid' };
  return { paid, change: paid - total, due: 0n, cash, problem: null };
}

/** Baht as a JSON number, for answers and screens. */
export const baht = (satang: bigint): number => toNumber(satang, SATANG);
