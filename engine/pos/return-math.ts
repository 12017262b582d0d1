/**
 * Partial returns of a point-of-sale sale, exact to the satang (docs/pos.md, "Returns of part of a sale"). Pure:
 * the server reads the sale and writes what this computes.
 *
 * - A line is worth its share of the bill's total: the total (after item and bill discounts, VAT included) spread
 *   over the lines in proportion to their amounts (`allocate`), so a bill discount is given back in proportion.
 * - Returning part of a line gives back that part of its worth, half-up to the satang. Figures are cumulative: the
 *   worth of everything returned so far less what earlier returns gave back, so the returns of a whole sale add up
 *   to its total exactly, and their VAT (the VAT included in what is returned of the VAT-bearing lines,
 *   rate / (100 + rate)) to its VAT.
 * - The money goes back by the sale's own payments: cash first (the drawer pays it there and then, never more than
 *   the cash the sale kept: paid less change), then the other methods in the order they were paid, each at most
 *   what it paid less what earlier returns gave back on it.
 */
import { allocate } from '../documents/document-math.ts';
import { roundDiv } from '../documents/decimal-value.ts';

/** A sale line: quantities scaled by 10,000 (4 decimals), amounts in satang. */
/** `exempt`: the line carries no VAT (its product is exempt or zero-rated), so what it gives back has none. */
export interface SaleLineState { qty: bigint; amount: bigint; returned: bigint; exempt?: boolean }
export interface SalePayment { methodId: number; type: string; amount: bigint }

export interface ReturnFigures {
  /** Satang given back by this return, and the VAT in it. */
  amount: bigint;
  vat: bigint;
  /** Cumulative, after this return (the sale's returned_amount and returned_vat). */
  totalReturned: bigint;
  totalVat: bigint;
  /** Every line returned whole: the sale is then refunded as a whole. */
  complete: boolean;
}

/** The worth of what `returned` (per line, scaled qty) takes back of a sale of `total` with `vat` in it. */
function worth(lines: SaleLineState[], returned: bigint[], total: bigint, vat: bigint, vatRate: bigint): { amount: bigint; vat: bigint; complete: boolean } {
  const shares = allocate(total, lines.map((l) => l.amount));
  let amount = 0n;
  let taxable = 0n;
  lines.forEach((l, i) => {
    const r = returned[i]!;
    const part = r >= l.qty ? shares[i]! : roundDiv(shares[i]! * r, l.qty);
    amount += part;
    if (!l.exempt) taxable += part;
  });
  const complete = lines.every((l, i) => returned[i]! >= l.qty);
  // vatRate in hundredths of a percent (7 % = 700): VAT included in an amount is amount × rate / (100 % + rate)
  return { amount, vat: complete ? vat : roundDiv(taxable * vatRate, 10_000n + vatRate), complete };
}

/**
 * What returning `qty` (scaled, per line) gives back of each line, in satang: the line's worth after the return
 * less its worth before, from the same shares as `returnFigures`, so the parts add up to its `amount` (a credit
 * note's lines, server/pos/sale-credit-note.ts).
 */
export function returnLineWorth(lines: SaleLineState[], qty: bigint[], total: bigint): bigint[] {
  const shares = allocate(total, lines.map((l) => l.amount));
  const part = (i: number, r: bigint) => (r >= lines[i]!.qty ? shares[i]! : roundDiv(shares[i]! * r, lines[i]!.qty));
  return lines.map((l, i) => (qty[i]! === 0n ? 0n : part(i, l.returned + qty[i]!) - part(i, l.returned)));
}

/**
 * What returning `qty` (scaled, per line; 0 for lines not returned) gives back. `before` is what earlier returns
 * gave back (returned_amount, returned_vat); the lines carry what they had returned before this one.
 */
export function returnFigures(lines: SaleLineState[], qty: bigint[], sale: { total: bigint; vat: bigint; vatRate: bigint }, before: { amount: bigint; vat: bigint }): ReturnFigures {
  const after = worth(lines, lines.map((l, i) => l.returned + qty[i]!), sale.total, sale.vat, sale.vatRate);
  return { amount: after.amount - before.amount, vat: after.vat - before.vat, totalReturned: after.amount, totalVat: after.vat, complete: after.complete };
}

/**
 * How `amount` goes back: per payment method, cash first, then the others in the order paid; `refunded` is what
 * earlier returns gave back per method. Throws when the payments cannot cover it (they always can: the total
 * returned never passes the total, which the payments less change cover).
 */
export function refundSplit(amount: bigint, payments: SalePayment[], change: bigint, refunded: Map<number, bigint>): Array<{ methodId: number; type: string; amount: bigint }> {
  const kept = new Map<number, { type: string; amount: bigint; cash: boolean; order: number }>();
  payments.forEach((p, i) => {
    const k = kept.get(p.methodId) ?? { type: p.type, amount: 0n, cash: p.type === 'cash', order: i };
    k.amount += p.amount;
    kept.set(p.methodId, k);
  });
  // the change came out of the cash
  let changeLeft = change;
  for (const k of kept.values()) {
    if (!k.cash || changeLeft === 0n) continue;
    const take = changeLeft < k.amount ? changeLeft : k.amount;
    k.amount -= take;
    changeLeft -= take;
  }
  const order = [...kept.entries()].sort(([, a], [, b]) => (a.cash === b.cash ? a.order - b.order : a.cash ? -1 : 1));
  const out: Array<{ methodId: number; type: string; amount: bigint }> = [];
  let left = amount;
  for (const [methodId, k] of order) {
    if (left <= 0n) break;
    const available = k.amount - (refunded.get(methodId) ?? 0n);
    if (available <= 0n) continue;
    const take = available < left ? available : left;
    out.push({ methodId, type: k.type, amount: take });
    left -= take;
  }
  if (left > 0n) throw new Error(`the sale's payments cannot give back ${left} more satang`);
  return out;
}
