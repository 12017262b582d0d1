/**
 * Totals of a sales or purchase document, exact to the satang (docs/documents.md).
 * Rounding points follow Thai practice: each line is rounded half-up to 2 decimals,
 * the document discount once, VAT once on the document total (never per line), and
 * withholding tax once per rate on the pre-VAT amount.
 */
import { DecimalInputError, parseDecimal, roundDiv, toNumber } from './decimal-value.ts';
import { DEFAULT_VAT_RATE } from './vat-rates.ts';

export type VatType = 'exclude' | 'include' | 'none';
type Dec = number | string;

export interface DocumentLineInput {
  qty: Dec;
  price: Dec;
  discount_percent?: Dec | null;
  discount_amount?: Dec | null;
  wht_rate?: Dec | null;
  /** The line carries no VAT (a product exempt from VAT or zero-rated): the document's VAT is on the other lines only. */
  vat_exempt?: boolean | null;
  /**
   * Satang the server adds to a line that finishes a source line whose earlier parts rounded down (line-rounding.ts
   * on the server): a discount cannot add, so this is the one way a part's amount rises above qty × price. At most 1.00.
   */
  rounding_amount?: Dec | null;
}

export interface DocumentInput {
  vat_type: VatType;
  /** Percent; default 7. Take it from vatRateOn(document date) when the document has a date. */
  vat_rate?: Dec | null;
  discount_percent?: Dec | null;
  discount_amount?: Dec | null;
  /** Withholding rate for lines that name none. */
  wht_rate?: Dec | null;
  items: DocumentLineInput[];
}

/** Money fields are integer satang. */
export interface LineTotalsSatang {
  /** qty × price, rounded to the satang. */
  gross: bigint;
  /** The line's own discount. */
  discount: bigint;
  /** gross − discount (+ rounding_amount when the server set one): what the line shows. */
  amount: bigint;
  /** This line's part of the document discount (parts add up exactly to it). */
  document_discount_share: bigint;
  /** This line's part of amount_before_vat (parts add up exactly to it); the WHT base. */
  amount_before_vat: bigint;
  /**
   * This line's part of total_amount (parts add up exactly to it): what the line is worth after every
   * discount, VAT included. Documents measured by amount (bills, receipts, credit notes) take from it.
   */
  total_share: bigint;
  /** Percent applied to this line, or 0. */
  wht_rate: number;
}

export interface WhtGroup { rate: number; base: bigint; amount: bigint }

export interface DocumentTotalsSatang {
  subtotal: bigint;
  discount_amount: bigint;
  amount_before_vat: bigint;
  vat_rate: number;
  vat_amount: bigint;
  total_amount: bigint;
  wht_amount: bigint;
  net_amount: bigint;
  /** WHT per rate: the base of each group is rounded once. */
  wht_groups: WhtGroup[];
  items: LineTotalsSatang[];
}

/** The same in baht as JSON numbers with at most 2 decimals, for the API and the forms. */
export type DocumentTotals = {
  [K in keyof Omit<DocumentTotalsSatang, 'items' | 'wht_groups'>]: number;
} & {
  wht_groups: { rate: number; base: number; amount: number }[];
  items: { [K in keyof LineTotalsSatang]: number }[];
};

export const WHT_RATES: readonly number[] = [1, 2, 3, 5];
const SATANG = 2;
const QTY = 4;
const PERCENT = 2;
const HUNDRED_PERCENT = 10_000n; // 100 % at scale 2
/** A line's rounding adjustment is a satang per earlier part at most: 1.00 is far beyond any real split. */
const MAX_ROUNDING = 100n;

function present(v: Dec | null | undefined): v is Dec {
  return v !== undefined && v !== null && v !== '';
}

function whtRate(v: Dec | null | undefined, field: string): number {
  if (!present(v)) return 0;
  const r = parseDecimal(v, 0, field);
  if (r === 0n) return 0;
  if (!WHT_RATES.includes(Number(r))) throw new DecimalInputError(field, `must be one of ${WHT_RATES.join(', ')} percent (Thai withholding rates), not ${String(v)}`);
  return Number(r);
}

function percent(v: Dec, field: string): bigint {
  const p = parseDecimal(v, PERCENT, field);
  if (p < 0n || p > HUNDRED_PERCENT) throw new DecimalInputError(field, 'must be between 0 and 100');
  return p;
}

function nonNegative(n: bigint, field: string): bigint {
  if (n < 0n) throw new DecimalInputError(field, 'must not be negative');
  return n;
}

/** An amount or a percent of `base`, never both: which one wins would be a guess. */
function discountOf(base: bigint, pct: Dec | null | undefined, amount: Dec | null | undefined, at: string): bigint {
  if (present(pct) && present(amount)) throw new DecimalInputError(`${at}discount_amount`, 'and discount_percent cannot both be given; send one of them');
  let d = 0n;
  if (present(pct)) d = roundDiv(base * percent(pct, `${at}discount_percent`), HUNDRED_PERCENT);
  if (present(amount)) d = nonNegative(parseDecimal(amount, SATANG, `${at}discount_amount`), `${at}discount_amount`);
  if (d > base) throw new DecimalInputError(`${at}discount_amount`, 'is larger than the amount it discounts');
  return d;
}

/**
 * Splits `total` over `weights` in proportion, to the satang, so the parts add up exactly:
 * each part is rounded down, then the satang left over go to the largest remainders
 * (earliest line first on ties), so the split is stable and independent of the order of evaluation.
 */
export function allocate(total: bigint, weights: bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0n));
  const parts = weights.map((w) => (total * w) / sum);
  let left = total - parts.reduce((a, b) => a + b, 0n);
  const order = weights.map((w, i) => ({ i, rem: (total * w) % sum })).sort((a, b) => (b.rem > a.rem ? 1 : b.rem < a.rem ? -1 : a.i - b.i));
  for (const { i } of order) { if (left <= 0n) break; parts[i]! += 1n; left -= 1n; }
  return parts;
}

/**
 * Spreads `total` over `weights` in proportion, half-up to the satang, with the rounding remainder
 * on the last line: each line's running total is rounded (not each part), so the parts add up
 * exactly, none is negative, each is within a satang of its exact share, and the last line takes
 * what is left (docs/documents.md, "Carrying discounts").
 */
export function spread(total: bigint, weights: bigint[]): bigint[] {
  const sum = weights.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map((_, i) => (i === weights.length - 1 ? total : 0n));
  let running = 0n;
  let given = 0n;
  return weights.map((w, i) => {
    running += w;
    const upTo = i === weights.length - 1 ? total : roundDiv(total * running, sum);
    const part = upTo - given;
    given = upTo;
    return part;
  });
}

/**
 * The part of `total` that belongs to `take` more units of a line of `whole` units of which `done`
 * were already taken: the rounded share of everything taken so far less the rounded share of what
 * was taken before, so the parts of successive takes add up exactly to `total` once the line is
 * fully taken (the last take gets the remainder).
 */
export function shareOfTake(total: bigint, whole: bigint, done: bigint, take: bigint): bigint {
  if (whole <= 0n) return 0n;
  const upTo = (n: bigint) => (n >= whole ? total : roundDiv(total * n, whole));
  return upTo(done + take) - upTo(done);
}

/** Totals in satang; throws DecimalInputError (code VALIDATION_FAILED, with the field path) on bad input. */
export function computeDocumentSatang(input: DocumentInput): DocumentTotalsSatang {
  if (!['exclude', 'include', 'none'].includes(input.vat_type)) throw new DecimalInputError('vat_type', 'must be "exclude", "include" or "none"');
  if (!Array.isArray(input.items)) throw new DecimalInputError('items', 'must be a list');
  const docWht = whtRate(input.wht_rate, 'wht_rate');
  const lines = input.items.map((it, i) => {
    const at = `items[${i}].`;
    const qty = nonNegative(parseDecimal(it.qty, QTY, `${at}qty`), `${at}qty`);
    const price = nonNegative(parseDecimal(it.price, SATANG, `${at}price`), `${at}price`);
    // qty (scale 4) × price (scale 2) is scale 6: one rounding to the satang
    const gross = roundDiv(qty * price, 10n ** BigInt(QTY));
    const discount = discountOf(gross, it.discount_percent, it.discount_amount, at);
    const rate = present(it.wht_rate) ? whtRate(it.wht_rate, `${at}wht_rate`) : docWht;
    const rounding = present(it.rounding_amount) ? nonNegative(parseDecimal(it.rounding_amount, SATANG, `${at}rounding_amount`), `${at}rounding_amount`) : 0n;
    if (rounding > MAX_ROUNDING) throw new DecimalInputError(`${at}rounding_amount`, 'is rounding, so at most 1.00');
    return { gross, discount, amount: gross - discount + rounding, wht_rate: rate, exempt: it.vat_exempt === true };
  });
  const subtotal = lines.reduce((a, l) => a + l.amount, 0n);
  const discount_amount = discountOf(subtotal, input.discount_percent, input.discount_amount, '');
  const afterDiscount = subtotal - discount_amount;

  const vatRate = present(input.vat_rate) ? percent(input.vat_rate, 'vat_rate') : BigInt(DEFAULT_VAT_RATE * 100);
  // the document discount is spread with the remainder on the last line, as when a part is carried to another document
  const shares = spread(discount_amount, lines.map((l) => l.amount));
  const nets = lines.map((l, i) => l.amount - shares[i]!);
  // VAT is on the lines that carry it: exempt lines (after their share of the document discount) are outside it
  const exemptPart = lines.reduce((a, l, i) => (l.exempt ? a + nets[i]! : a), 0n);
  const taxable = afterDiscount - exemptPart;
  let amount_before_vat: bigint, vat_amount: bigint, total_amount: bigint;
  if (input.vat_type === 'exclude') {
    amount_before_vat = afterDiscount;
    vat_amount = roundDiv(taxable * vatRate, HUNDRED_PERCENT);
    total_amount = amount_before_vat + vat_amount;
  } else if (input.vat_type === 'include') {
    total_amount = afterDiscount;
    vat_amount = roundDiv(taxable * vatRate, HUNDRED_PERCENT + vatRate);
    amount_before_vat = total_amount - vat_amount;
  } else {
    amount_before_vat = total_amount = afterDiscount;
    vat_amount = 0n;
  }

  let bases: bigint[], totalShares: bigint[];
  if (exemptPart === 0n) {
    bases = allocate(amount_before_vat, nets);
    totalShares = spread(total_amount, nets);
  } else {
    // an exempt line is worth its net amount before VAT and after it; the VAT-bearing lines share the rest
    const weights = lines.map((l, i) => (l.exempt ? 0n : nets[i]!));
    const taxBases = allocate(amount_before_vat - exemptPart, weights);
    const taxTotals = spread(total_amount - exemptPart, weights);
    bases = lines.map((l, i) => (l.exempt ? nets[i]! : taxBases[i]!));
    totalShares = lines.map((l, i) => (l.exempt ? nets[i]! : taxTotals[i]!));
  }
  const byRate = new Map<number, bigint>();
  lines.forEach((l, i) => { if (l.wht_rate) byRate.set(l.wht_rate, (byRate.get(l.wht_rate) ?? 0n) + bases[i]!); });
  const wht_groups = [...byRate].sort((a, b) => a[0] - b[0]).map(([rate, base]) => ({ rate, base, amount: roundDiv(base * BigInt(rate), 100n) }));
  const wht_amount = wht_groups.reduce((a, g) => a + g.amount, 0n);

  return {
    subtotal, discount_amount, amount_before_vat, vat_rate: Number(vatRate) / 100, vat_amount, total_amount,
    wht_amount, net_amount: total_amount - wht_amount, wht_groups,
    items: lines.map(({ exempt: _exempt, ...l }, i) => ({ ...l, document_discount_share: shares[i]!, amount_before_vat: bases[i]!, total_share: totalShares[i]! })),
  };
}

/** Totals in baht (JSON numbers, at most 2 decimals): what the API returns and the forms show. */
export function computeDocument(input: DocumentInput): DocumentTotals {
  const t = computeDocumentSatang(input);
  const baht = (n: bigint) => toNumber(n, SATANG);
  return {
    subtotal: baht(t.subtotal), discount_amount: baht(t.discount_amount), amount_before_vat: baht(t.amount_before_vat),
    vat_rate: t.vat_rate, vat_amount: baht(t.vat_amount), total_amount: baht(t.total_amount),
    wht_amount: baht(t.wht_amount), net_amount: baht(t.net_amount),
    wht_groups: t.wht_groups.map((g) => ({ rate: g.rate, base: baht(g.base), amount: baht(g.amount) })),
    items: t.items.map((l) => ({
      gross: baht(l.gross), discount: baht(l.discount), amount: baht(l.amount),
      document_discount_share: baht(l.document_discount_share), amount_before_vat: baht(l.amount_before_vat), total_share: baht(l.total_share), wht_rate: l.wht_rate,
    })),
  };
}
