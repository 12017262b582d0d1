/**
 * The one date presentation of the product, shared by the web (lists, forms,
 * filters) and the server (CSV exports in Thai): Buddhist-era years in Thai
 * ("18 พ.ย. 2569"), Western in English ("18 Nov 2026"), times in Asia/Bangkok.
 */
export const BE_OFFSET = 543;
export const TH_MONTHS = ['มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม'];
export const TH_MONTHS_SHORT = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.'];
export const EN_MONTHS_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad2 = (n: number) => String(n).padStart(2, '0');
const isTh = (lang: string) => lang !== 'en';

/** Day, short month and year from parts (month 1–12). */
export function formatDateParts(y: number, m: number, d: number, lang: string): string {
  return isTh(lang) ? `${d} ${TH_MONTHS_SHORT[m - 1]} ${y + BE_OFFSET}` : `${d} ${EN_MONTHS_SHORT[m - 1]} ${y}`;
}

/**
 * A month ("2026-11", a report's month parameter or a month it groups by) → "พ.ย. 2569" / "Nov 2026" (with `long`:
 * "พฤศจิกายน 2569"); null when the text is not a month.
 */
export function formatIsoMonth(value: string, lang: string, long = false): string | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value);
  if (!m) return null;
  const y = Number(m[1]);
  const i = Number(m[2]) - 1;
  return isTh(lang) ? `${(long ? TH_MONTHS : TH_MONTHS_SHORT)[i]} ${y + BE_OFFSET}` : `${EN_MONTHS_SHORT[i]} ${y}`;
}

/** "2026-11-18" → "18 พ.ย. 2569" / "18 Nov 2026"; anything else is returned as it came. */
export function formatIsoDate(value: string, lang: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m) return value;
  return formatDateParts(Number(m[1]), Number(m[2]), Number(m[3]), lang);
}

/** Bangkok wall-clock parts of an instant (UTC+7, no daylight saving). */
export function bangkokParts(d: Date): { y: number; m: number; d: number; h: number; min: number } {
  const shifted = new Date(d.getTime() + 7 * 3600_000);
  return { y: shifted.getUTCFullYear(), m: shifted.getUTCMonth() + 1, d: shifted.getUTCDate(), h: shifted.getUTCHours(), min: shifted.getUTCMinutes() };
}

/** An ISO instant → "18 พ.ย. 2569 14:05" in Bangkok time. */
export function formatIsoDateTime(value: string, lang: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = bangkokParts(d);
  return `${formatDateParts(p.y, p.m, p.d, lang)} ${pad2(p.h)}:${pad2(p.min)}`;
}
