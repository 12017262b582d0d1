import { refundSplit, returnFigures } from '../../../../engine/pos/return-math.ts';
import { lineVatExempt } from '../../../../engine/documents/document-totals.ts';
import { toScaledInteger } from '../../../../engine/validation/value-limits.ts';

type Row = Record<string, unknown>;

/** What a sale's return will give back, in baht: the amount, its VAT and the money per payment method. */
export interface ReturnPreview { amount: number; vat: number; whole: boolean; refunds: Array<{ methodId: number; type: string; amount: number }> }

const scaled = (v: unknown, scale: number) => BigInt(toScaledInteger(Number(v ?? 0), scale));
const baht = (satang: bigint) => Number(satang) / 100;

/**
 * The figures the server's return (server/pos/sale-return.ts) will write, worked out from the sale as read with the
 * same arithmetic (engine/pos/return-math.ts), so the clerk confirms the amount before anything is written. The API
 * has no preview call; the server's answer after the return is what the panel shows as done.
 */
export function previewReturn(sale: Row, lines: Row[], payments: Row[], refunds: Row[], qty: number[]): ReturnPreview {
  const state = lines.map((l) => ({ qty: scaled(l.qty, 4), amount: scaled(l.amount, 2), returned: scaled(l.returned_qty, 4), exempt: lineVatExempt(l) }));
  const figures = returnFigures(state, qty.map((q) => scaled(q, 4)),
    { total: scaled(sale.total_amount, 2), vat: scaled(sale.vat_amount, 2), vatRate: scaled(sale.vat_rate, 2) },
    { amount: scaled(sale.returned_amount, 2), vat: scaled(sale.returned_vat, 2) });
  const refunded = new Map<number, bigint>();
  for (const r of refunds) refunded.set(Number(r.payment_method_id), (refunded.get(Number(r.payment_method_id)) ?? 0n) + scaled(r.amount, 2));
  const split = refundSplit(figures.amount, payments.map((p) => ({ methodId: Number(p.payment_method_id), type: String(p.payment_type), amount: scaled(p.amount, 2) })), scaled(sale.change_amount, 2), refunded);
  return { amount: baht(figures.amount), vat: baht(figures.vat), whole: figures.complete, refunds: split.map((s) => ({ methodId: s.methodId, type: s.type, amount: baht(s.amount) })) };
}
