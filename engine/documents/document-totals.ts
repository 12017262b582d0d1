import { computeDocument, type DocumentInput, type DocumentTotals } from './document-math.ts';
import { DecimalInputError, parseDecimal, toNumber } from './decimal-value.ts';
import { vatRateOn } from './vat-rates.ts';

type Row = Record<string, unknown>;

/** The header fields a document's totals fill, in the order a form shows them. */
export const TOTAL_FIELDS = ['subtotal', 'discount_amount', 'amount_before_vat', 'vat_rate', 'vat_amount', 'total_amount', 'wht_amount', 'net_amount'] as const;

const nonZero = (v: unknown) => v !== null && v !== undefined && v !== '' && Number(v) !== 0;

/**
 * A percent and an amount discount are one choice: the percent when one is
 * given (the amount is then what it comes to), else the amount. The defaults
 * hold both at 0, so only the chosen one is passed on.
 */
function discount(row: Row): Pick<DocumentInput, 'discount_percent' | 'discount_amount'> {
  return nonZero(row.discount_percent) ? { discount_percent: row.discount_percent as number } : { discount_amount: (row.discount_amount ?? null) as number | null };
}

/**
 * A document's totals from its header and lines as stored or typed: the one
 * mapping the server (which stores them) and the form (which shows them as
 * you type) share. Throws DecimalInputError on values that cannot be computed.
 */
export function documentTotals(header: Row, items: Row[], today: string, byAmount = false): DocumentTotals {
  // billing notes keep their historical field name bill_date
  const given = header.doc_date ?? header.bill_date;
  const date = typeof given === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(given) ? given : today;
  if (byAmount) {
    // billing notes, receipts and credit notes carry an amount per line (a part of a source line's
    // total: after every discount, VAT included), not qty × price: each line counts as one unit at its
    // amount, so the total is exactly the sum of the lines and VAT is the part of it that is VAT
    const vat = (header.vat_type ?? 'none') === 'none' ? 'none' : 'include';
    const t = computeDocument({ vat_type: vat, vat_rate: vatRateOn(date), items: items.map((l) => ({ qty: 1, price: (l.amount ?? 0) as number })) });
    return withheld(vatShifted(t, header.vat_adjustment), header.wht_amount);
  }
  return vatAdjusted(computeDocument({
    vat_type: (header.vat_type ?? 'exclude') as DocumentInput['vat_type'],
    vat_rate: vatRateOn(date),
    ...discount(header),
    wht_rate: (header.wht_rate ?? null) as number | null,
    items: items.map((l) => ({
      qty: (l.qty ?? 0) as number, price: (l.price ?? 0) as number, ...discount(l),
      // a line's 0 means "as the document", not "none": only a rate of its own overrides
      wht_rate: nonZero(l.wht_rate) ? (l.wht_rate as number) : null,
      vat_exempt: lineVatExempt(l),
      rounding_amount: (l.rounding_amount ?? null) as number | null,
    })),
  }), header.vat_adjustment);
}

/**
 * The satang of VAT rounding a document carries from its source (`vat_adjustment`, set by the
 * server when the document takes the last of a source: docs/documents.md, "Carrying discounts"),
 * added to its VAT, total and net so every reader of the totals sees the stored figures.
 */
function vatAdjusted(t: DocumentTotals, given: unknown): DocumentTotals {
  if (!nonZero(given)) return t;
  const adj = parseDecimal(given as number | string, 2, 'vat_adjustment');
  const add = (v: number) => toNumber(parseDecimal(v, 2) + adj, 2);
  return { ...t, vat_amount: add(t.vat_amount), total_amount: add(t.total_amount), net_amount: add(t.net_amount) };
}

/**
 * A by-amount document's `vat_adjustment` (a credit note's share of its invoice's VAT, set by the server on issue:
 * docs/documents.md): the total is the lines' sum, so the satang move between the amount before VAT and the VAT.
 */
function vatShifted(t: DocumentTotals, given: unknown): DocumentTotals {
  if (!nonZero(given)) return t;
  const adj = parseDecimal(given as number | string, 2, 'vat_adjustment');
  return { ...t, vat_amount: toNumber(parseDecimal(t.vat_amount, 2) + adj, 2), amount_before_vat: toNumber(parseDecimal(t.amount_before_vat, 2) - adj, 2) };
}

/** The highest withholding tax rate in Thailand (Revenue Code s. 50, 3 tredecim): a receipt withholds at most this much. */
export const WHT_MAX_PERCENT = 15n;

/**
 * Tax the customer withheld on a by-amount document (a receipt): typed from its 50 ทวิ, not computed,
 * since the payer decides it; the document settles its total, of which net_amount came as money.
 */
function withheld(t: DocumentTotals, given: unknown): DocumentTotals {
  if (given === undefined || given === null || given === '') return t;
  const wht = parseDecimal(given as number | string, 2, 'wht_amount');
  if (wht < 0n) throw new DecimalInputError('wht_amount', 'must not be negative');
  const total = parseDecimal(t.total_amount, 2);
  if (wht > total) throw new DecimalInputError('wht_amount', `is more than the total it is withheld from (${t.total_amount})`);
  // 15 % is the highest Thai withholding rate: more than that of what is settled before VAT is a typing slip
  const base = parseDecimal(t.amount_before_vat, 2);
  if (wht * 100n > base * WHT_MAX_PERCENT) {
    const max = toNumber((base * WHT_MAX_PERCENT) / 100n, 2);
    throw new DecimalInputError('wht_amount', `is more than ${WHT_MAX_PERCENT} % of the amount settled before VAT (${t.amount_before_vat}): at most ${max}`, 'wht_over_limit', { max: String(max), base: String(t.amount_before_vat) });
  }
  return { ...t, wht_amount: toNumber(wht, 2), net_amount: toNumber(total - wht, 2) };
}

/**
 * A line that carries no VAT: its `vat_type` (the product's, copied onto the line: a POS sale) is `exempt`
 * (ยกเว้น VAT) or `zero` (VAT 0 %). A line without the field is VAT-bearing, as the document says.
 */
export function lineVatExempt(line: Row): boolean {
  return line.vat_type === 'exempt' || line.vat_type === 'zero';
}

/** Whether a line's discount amount is the server's (computed from its percent) rather than typed. */
export function lineDiscountComputed(line: Row): boolean {
  return nonZero(line.discount_percent);
}
