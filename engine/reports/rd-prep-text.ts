/**
 * The text file the Revenue Department's filing program, RD Prep (โปรแกรมโอนย้ายข้อมูล RD Prep), imports
 * as the attachment (ใบแนบ) of ภ.ง.ด.3 and ภ.ง.ด.53: one line per withholding certificate, fields
 * separated by "|", no header line, CRLF line ends, UTF-8. The field order is the layout Thai
 * accounting software exports for RD Prep (the OCA l10n_th default layouts):
 *
 * ภ.ง.ด.3  (17 fields): no | tax id | branch | title | first name | last name | address | sub-district |
 *           district | province | postal code | date paid | income type | rate | amount paid | tax | condition
 * ภ.ง.ด.53 (16 fields): the same with one name field (a juristic person's name) instead of first/last name.
 *
 * Date paid: DDMMYYYY in the Buddhist era (2026-11-10 → 10112569). Money: 2 decimals with a thousands
 * separator (1,333.50), which RD Prep accepts because the separator is "|". Rate: whole percent.
 * Condition: 1 withheld at source, 2 paid by the payer every time (ออกให้ตลอดไป), 3 paid once
 * (ออกให้ครั้งเดียว). The separator, tabs, line breaks and double quotes inside a value become spaces (a house
 * number such as 99/1 stays as it is).
 */

export type RdPrepForm = 'pnd3' | 'pnd53';

export interface RdPrepRow {
  doc_date: string | null;
  tax_id: string | null;
  branch_code: string | null;
  payee_name: string | null;
  address_line: string | null;
  sub_district: string | null;
  district: string | null;
  province: string | null;
  postal_code: string | null;
  income_description: string | null;
  wht_rate: string | number | null;
  amount_paid: number | string | null;
  tax_amount: number | string | null;
  payment_condition: string | null;
}

const TITLES = ['นางสาว', 'นาง', 'นาย', 'น.ส.', 'ด.ช.', 'ด.ญ.'];
const CONDITION: Record<string, string> = { withheld: '1', paid_always: '2', paid_once: '3' };

/** Text safe for a "|" separated field: no separators, quotes or line breaks, single spaces, at most `max` characters. */
export function rdText(s: string | null | undefined, max: number): string {
  return String(s ?? '').replace(/[|\r\n\t"]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, max);
}

/** 2026-11-10 → 10112569 (day, month, Buddhist-era year). */
export function rdDate(iso: string | null): string {
  if (!iso || !/^\d{4}-\d{2}-\d{2}/.test(iso)) return '';
  return `${iso.slice(8, 10)}${iso.slice(5, 7)}${Number(iso.slice(0, 4)) + 543}`;
}

/** Baht with 2 decimals and thousands separators, from the API's exact decimal (never a float sum). */
export function rdMoney(v: number | string | null): string {
  const text = typeof v === 'number' ? v.toFixed(2) : String(v ?? '0');
  const m = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return '0.00';
  return `${m[1]}${m[2]!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(m[3] ?? '').padEnd(2, '0')}`;
}

/** An individual's name as title, first name and last name (ภ.ง.ด.3). */
export function splitThaiName(name: string): { title: string; first: string; last: string } {
  let rest = name.trim();
  const title = TITLES.find((t) => rest.startsWith(t)) ?? '';
  rest = rest.slice(title.length).trim();
  const [first = '', ...last] = rest.split(/\s+/);
  return { title, first, last: last.join(' ') };
}

export function rdPrepLine(form: RdPrepForm, seq: number, r: RdPrepRow): string {
  const name = rdText(r.payee_name, 200);
  const who = form === 'pnd3'
    ? (({ title, first, last }) => [title, rdText(first, 100), rdText(last, 80)])(splitThaiName(name))
    : ['', rdText(name, 200)];
  return [
    String(seq), (r.tax_id ?? '').replace(/\D/g, ''), (r.branch_code ?? '').replace(/\D/g, '') || '00000', ...who,
    rdText(r.address_line, 100), rdText(r.sub_district, 100), rdText(r.district, 50), rdText(r.province, 50), rdText(r.postal_code, 5),
    rdDate(r.doc_date), rdText(r.income_description, 100), String(Number(r.wht_rate ?? 0)), rdMoney(r.amount_paid), rdMoney(r.tax_amount),
    CONDITION[r.payment_condition ?? 'withheld'] ?? '1',
  ].join('|');
}

/** The whole file: one line per certificate, CRLF after each. */
export function rdPrepText(form: RdPrepForm, rows: RdPrepRow[]): string {
  return rows.map((r, i) => `${rdPrepLine(form, i + 1, r)}\r\n`).join('');
}
