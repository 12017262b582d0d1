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

/** One income row of the 50 ทวิ: a row of the Revenue Department's form, with the date, amount and tax when it is the one paid. */
export interface CertificateIncomeRow {
  /** The form's row: 1, 2, 3, 4a (interest), 4b (dividends), 5 (s. 3 เตรส), 6 (other). */
  value: string;
  label: { th: string; en: string };
  paidDate: string | null;
  amountPaid: number | null;
  taxWithheld: number | null;
}

/** The rows of the Revenue Department's 50 ทวิ, in its order and words. */
export const CERTIFICATE_ROWS: ReadonlyArray<{ value: string; label: { th: string; en: string } }> = [
  { value: '1', label: { th: '1. เงินเดือน ค่าจ้าง เบี้ยเลี้ยง โบนัส ฯลฯ ตามมาตรา 40 (1)', en: '1. Salaries, wages, allowances, bonuses, etc., section 40 (1)' } },
  { value: '2', label: { th: '2. ค่าธรรมเนียม ค่านายหน้า ฯลฯ ตามมาตรา 40 (2)', en: '2. Fees, commissions, etc., section 40 (2)' } },
  { value: '3', label: { th: '3. ค่าแห่งลิขสิทธิ์ ฯลฯ ตามมาตรา 40 (3)', en: '3. Royalties, etc., section 40 (3)' } },
  { value: '4a', label: { th: '4. (ก) ดอกเบี้ย ฯลฯ ตามมาตรา 40 (4) (ก)', en: '4. (a) Interest, etc., section 40 (4) (a)' } },
  { value: '4b', label: { th: '(ข) เงินปันผล เงินส่วนแบ่งกำไร ฯลฯ ตามมาตรา 40 (4) (ข)', en: '(b) Dividends, shares of profit, etc., section 40 (4) (b)' } },
  { value: '5', label: { th: '5. ตามคำสั่งกรมสรรพากรที่ออกตามมาตรา 3 เตรส (ระบุ)', en: '5. Under the Revenue Department\'s orders issued under section 3 ter (specify)' } },
  { value: '6', label: { th: '6. อื่น ๆ (ระบุ)', en: '6. Others (specify)' } },
];

/**
 * Which form row an income type (section 40 (1)–(8)) goes on: 40(4) is interest (4 ก) unless the
 * certificate says dividends (4 ข); rent, professions, contracts and services between businesses,
 * 40(5)–(8), are withheld under the Revenue Department's orders under s. 3 เตรส (row 5).
 */
export function certificateRowOf(incomeType: unknown, income4Kind: unknown): string {
  switch (incomeType) {
    case '40_1': return '1';
    case '40_2': return '2';
    case '40_3': return '3';
    case '40_4': return income4Kind === 'dividend' ? '4b' : '4a';
    case '40_5': case '40_6': case '40_7': case '40_8': return '5';
    default: return '6';
  }
}

/**
 * The income rows of the form. The row paid carries its date, amount and tax, and says what the payment
 * was for: row 5 names the type (the income type's words, then income_description), a dividend its
 * tax-credit rate; the others stay blank as on the paper form. The totals are those of the filled row:
 * a certificate records one payment.
 */
export function certificateIncomeRows(
  options: ReadonlyArray<{ value: string; label: { th: string; en: string } }>,
  row: { income_type?: unknown; income_4_kind?: unknown; income_description?: unknown; dividend_credit_rate?: unknown; paid_date?: unknown; doc_date?: unknown; amount_paid?: unknown; tax_amount?: unknown },
): { rows: CertificateIncomeRow[]; totalPaid: number; totalTax: number } {
  const amount = row.amount_paid === null || row.amount_paid === undefined || row.amount_paid === '' ? 0 : toNumber(parseDecimal(row.amount_paid as string | number, 2, 'amount_paid'));
  const tax = row.tax_amount === null || row.tax_amount === undefined || row.tax_amount === '' ? 0 : toNumber(parseDecimal(row.tax_amount as string | number, 2, 'tax_amount'));
  const date = (row.paid_date ?? row.doc_date ?? null) as string | null;
  const paidRow = certificateRowOf(row.income_type, row.income_4_kind);
  const type = options.find((o) => o.value === row.income_type)?.label;
  const description = typeof row.income_description === 'string' ? row.income_description.trim() : '';
  const words = (lang: 'th' | 'en'): string => {
    const named = paidRow === '5' || paidRow === '6' ? [type?.[lang].replace(/^40\(\d\)\s*/, ''), description] : [description];
    const credit = paidRow === '4b' && row.dividend_credit_rate !== null && row.dividend_credit_rate !== undefined && row.dividend_credit_rate !== ''
      ? (lang === 'th' ? `เครดิตภาษีในอัตราร้อยละ ${String(row.dividend_credit_rate)}` : `tax credit at ${String(row.dividend_credit_rate)}%`) : '';
    return [...named, credit].filter(Boolean).join(' — ');
  };
  const known = options.some((o) => o.value === row.income_type) || paidRow !== '6';
  const rows = CERTIFICATE_ROWS.map((r) => (known && r.value === paidRow
    ? { value: r.value, label: { th: [r.label.th, words('th')].filter(Boolean).join(' '), en: [r.label.en, words('en')].filter(Boolean).join(' ') }, paidDate: date, amountPaid: amount, taxWithheld: tax }
    : { value: r.value, label: r.label, paidDate: null, amountPaid: null, taxWithheld: null }));
  const filled = rows.some((r) => r.amountPaid !== null);
  return { rows, totalPaid: filled ? amount : 0, totalTax: filled ? tax : 0 };
}
