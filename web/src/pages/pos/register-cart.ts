/**
 * The register's cart, pure: lines added by a scan (the same product again adds one to its line), quantities
 * changed or removed, and the figures from the shared promotion arithmetic (engine/pos/promotion-math.ts), the
 * same code the server prices the sale with, so the screen shows what the server will store.
 */
import { baht, priceCart, settle, type PromotionRow } from '../../../../engine/pos/promotion-math.ts';

export interface CartProduct { id: number; code: string; name_th: string; price: number | null; barcode?: string | null; vat_type?: string | null; unit?: string | null }
/** `exempt`: the product carries no VAT (its vat_type is exempt or zero-rated). */
export interface CartLine { product_id: number; code: string; name: string; price: number; qty: number; exempt?: boolean; unit?: string | null }
export interface PaymentRow { payment_method_id: number; amount: string; is_cash: boolean; reference?: string }

export function addProduct(lines: CartLine[], p: CartProduct): CartLine[] {
  const at = lines.findIndex((l) => l.product_id === p.id);
  if (at >= 0) return lines.map((l, i) => (i === at ? { ...l, qty: l.qty + 1 } : l));
  return [...lines, { product_id: p.id, code: p.code, name: p.name_th, price: Number(p.price ?? 0), qty: 1, exempt: p.vat_type === 'exempt' || p.vat_type === 'zero', unit: p.unit ?? null }];
}

/** A quantity of 0 or less removes the line; anything not a number leaves it as it was. */
export function setQty(lines: CartLine[], index: number, qty: number): CartLine[] {
  if (!Number.isFinite(qty)) return lines;
  if (qty <= 0) return lines.filter((_, i) => i !== index);
  return lines.map((l, i) => (i === index ? { ...l, qty: Math.round(qty * 10_000) / 10_000 } : l));
}

export interface CartFigures {
  lines: { discount: number; amount: number; promotion_id: number | null }[];
  subtotal: number; billDiscount: number; billPromotionId: number | null; total: number; vat: number; beforeVat: number;
  /** What the VAT-exempt lines come to (no VAT in it). */
  exempt: number;
}

export function figures(lines: CartLine[], promotions: PromotionRow[], date: string, channelId: number | null): CartFigures {
  const c = priceCart(lines.map((l) => ({ product_id: l.product_id, qty: l.qty, price: l.price, vat_exempt: l.exempt === true })), promotions, { date, channelId });
  return {
    lines: c.lines.map((l) => ({ discount: baht(l.discount), amount: baht(l.amount), promotion_id: l.promotion_id })),
    subtotal: baht(c.subtotal), billDiscount: baht(c.bill_discount), billPromotionId: c.bill_promotion_id,
    total: baht(c.total), vat: baht(c.vat_amount), beforeVat: baht(c.amount_before_vat), exempt: baht(c.exempt_amount),
  };
}

/** Paid, change and what is still due for the payment rows (amounts as typed; blank rows count 0). */
export function payState(total: number, rows: PaymentRow[]): { paid: number; change: number; due: number; problem: string | null } {
  const usable = rows.filter((r) => /^\d+(\.\d{1,2})?$/.test(r.amount.trim()));
  const s = settle(BigInt(Math.round(total * 100)), usable.map((r) => ({ amount: r.amount.trim(), is_cash: r.is_cash })));
  return { paid: baht(s.paid), change: baht(s.change), due: baht(s.due), problem: s.problem };
}

/** The business's today in Bangkok (promotions are dated by it). */
export function bangkokToday(at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok', year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/**
 * Units a product is weighed or measured in take a decimal quantity (1.5 kg); any other unit counts whole
 * pieces (a pack, a roll, a box: 1.5 packs is a typing slip). The unit is free text on the product, so the
 * measured ones are recognised by name, in Thai and English.
 */
const MEASURED = /^(กก\.?|กิโลกรัม|กิโล|ก\.|กรัม|ขีด|ตัน|ลิตร|ล\.|มล\.?|มิลลิลิตร|เมตร|ม\.|ซม\.?|เซนติเมตร|หลา|ฟุต|นิ้ว|ตร\.ม\.?|ตารางเมตร|ลบ\.ม\.?|kg|kgs|g|gram|grams|l|litre|liter|ml|m|metre|meter|cm|mm|yard|ft|m2|sqm|m3)$/i;
export function unitAllowsDecimals(unit: string | null | undefined): boolean {
  return MEASURED.test(String(unit ?? '').trim());
}

/**
 * A quantity as typed in a cart line. An empty box is being edited (Backspace, then the new figure), never a 0:
 * the line stays as it was. 0 asks before the line goes. A fraction of a counted unit is refused.
 */
export type QtyReading = { kind: 'qty'; qty: number } | { kind: 'editing' } | { kind: 'zero' } | { kind: 'no_decimals' } | { kind: 'invalid' };
export function readQty(text: string, decimals: boolean): QtyReading {
  const t = text.trim().replace(/,/g, '');
  if (t === '' || t === '.') return { kind: 'editing' };
  if (!/^\d+(\.\d{0,4})?$/.test(t)) return { kind: 'invalid' };
  const qty = Number(t);
  if (qty === 0) return { kind: 'zero' };
  if (!decimals && !Number.isInteger(qty)) return { kind: 'no_decimals' };
  return { kind: 'qty', qty };
}

/** Thai banknotes a customer hands over; the quick-cash buttons offer the next of each above the amount due. */
export const NOTES = [20, 50, 100, 500, 1000] as const;
export function quickCash(due: number): number[] {
  if (!(due > 0)) return [];
  const out = new Set<number>();
  for (const n of NOTES) {
    const next = Math.ceil(Math.round(due * 100) / (n * 100)) * n;
    if (next > due + 1e-9) out.add(next);
  }
  return [...out].sort((a, b) => a - b);
}
