import { DecimalInputError, parseDecimal, roundDiv, toNumber } from './decimal-value.ts';
import { WHT_RATES } from './document-math.ts';

/**
 * The tax a withholding certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย, 50 ทวิ)
 * states: amount paid × rate / 100, rounded half-up to the satang once.
 * In the engine so the server (which stores it) and a form can share it.
 */
export function withholdingTax(amountPaid: number | string | null | undefined, rate: number | string | null | undefined): number {
  if (amountPaid === null || amountPaid === undefined || amountPaid === '') return 0;
  const paid = parseDecimal(amountPaid, 2, 'amount_paid');
  if (paid < 0n) throw new DecimalInputError('amount_paid', 'must not be negative');
  if (rate === null || rate === undefined || rate === '') return 0;
  const r = Number(rate);
  if (!WHT_RATES.includes(r)) throw new DecimalInputError('wht_rate', `must be one of ${WHT_RATES.join(', ')} percent (Thai withholding rates), not ${String(rate)}`);
  return toNumber(roundDiv(paid * BigInt(r), 100n));
}

/** One income row of the 50 ทวิ: a section 40 type, with the date, amount and tax when it is the one paid. */
export interface CertificateIncomeRow {
  value: string;
  label: { th: string; en: string };
  paidDate: string | null;
  amountPaid: number | null;
  taxWithheld: number | null;
}

/**
 * The income rows of the form, one per income type the schema lists (section
 * 40 (1)–(8)), in that order; the certificate's own type carries its date
 * paid, amount paid and tax withheld, the others stay blank as on the paper
 * form. The totals are those of the filled row: a certificate records one payment.
 */
export function certificateIncomeRows(
  options: ReadonlyArray<{ value: string; label: { th: string; en: string } }>,
  row: { income_type?: unknown; paid_date?: unknown; doc_date?: unknown; amount_paid?: unknown; tax_amount?: unknown },
): { rows: CertificateIncomeRow[]; totalPaid: number; totalTax: number } {
  const amount = row.amount_paid === null || row.amount_paid === undefined || row.amount_paid === '' ? 0 : toNumber(parseDecimal(row.amount_paid as string | number, 2, 'amount_paid'));
  const tax = row.tax_amount === null || row.tax_amount === undefined || row.tax_amount === '' ? 0 : toNumber(parseDecimal(row.tax_amount as string | number, 2, 'tax_amount'));
  const date = (row.paid_date ?? row.doc_date ?? null) as string | null;
  const rows = options.map((o) => (o.value === row.income_type
    ? { value: o.value, label: o.label, paidDate: date, amountPaid: amount, taxWithheld: tax }
    : { value: o.value, label: o.label, paidDate: null, amountPaid: null, taxWithheld: null }));
  const filled = rows.some((r) => r.amountPaid !== null);
  return { rows, totalPaid: filled ? amount : 0, totalTax: filled ? tax : 0 };
}
