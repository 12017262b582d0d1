import { bahttext } from 'bahttext';

export type PrintLang = 'th' | 'en';

export interface PrintOptions {
  lang: PrintLang;
  /** Buddhist-era years (2569 for 2026); default on in Thai, off in English. */
  buddhistEra?: boolean;
  /** A view-only copy (the customer portal): every page carries COPY_MARK and a "COPY" watermark. */
  copy?: boolean;
  /** The copies in one PDF, in order, each marked ต้นฉบับ or สำเนา (?copies=original,copy); none: one unmarked copy. */
  copies?: Array<'original' | 'copy'>;
}

/** The mark of a view-only copy, in both languages whatever the print language. */
export const COPY_MARK = 'สำเนา — สำหรับดูเท่านั้น / COPY — for viewing only';

/** "2026-11-18" → "18 พฤศจิกายน 2569" (th, BE) or "18 November 2026" (en). Other values print as given. */
export function formatDate(value: unknown, opts: PrintOptions): string {
  if (value === null || value === undefined || value === '') return '';
  const d = new Date(typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : String(value));
  if (Number.isNaN(d.getTime())) return String(value);
  const be = opts.buddhistEra ?? opts.lang === 'th';
  const locale = opts.lang === 'th' ? `th-TH-u-ca-${be ? 'buddhist' : 'gregory'}` : `en-GB-u-ca-${be ? 'buddhist' : 'gregory'}`;
  return new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(d);
}

/** A quantity as a person writes it: no trailing zeros ("100", "2.5"), grouped, at most `scale` decimals. */
export function formatQuantity(value: unknown, scale: number): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: scale }) : String(value);
}

export function formatMoney(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  return Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : String(value);
}

const ONES = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', ' thousand', ' million', ' billion', ' trillion'];

function below1000(n: number): string {
  const parts: string[] = [];
  if (n >= 100) parts.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const r = n % 100;
  if (r >= 20) parts.push(TENS[Math.floor(r / 10)]! + (r % 10 ? `-${ONES[r % 10]}` : ''));
  else if (r) parts.push(ONES[r]!);
  return parts.join(' ');
}

export function englishNumber(n: number): string {
  if (n === 0) return 'zero';
  const groups: string[] = [];
  for (let i = 0; n > 0; i++, n = Math.floor(n / 1000)) {
    const g = n % 1000;
    if (g) groups.unshift(below1000(g) + SCALES[i]);
  }
  return groups.join(' ');
}

/** "Twelve thousand five hundred baht only", "... baht and fifty satang". */
export function englishBahtText(amount: number): string {
  const satangTotal = Math.round(Math.abs(amount) * 100);
  const baht = Math.floor(satangTotal / 100);
  const satang = satangTotal % 100;
  let s = `${englishNumber(baht)} baht`;
  s += satang ? ` and ${englishNumber(satang)} satang` : ' only';
  s = (amount < 0 ? 'minus ' : '') + s;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The amount in words in the print's language ("หนึ่งหมื่นสองพันห้าร้อยบาทถ้วน"). */
export function amountInWords(amount: number, lang: PrintLang): string {
  return lang === 'th' ? bahttext(amount) : englishBahtText(amount);
}
