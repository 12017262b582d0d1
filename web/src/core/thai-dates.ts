/**
 * One date presentation for lists, forms, pickers and filters: in Thai the
 * Buddhist-era year (18 พ.ย. 2569), in English the Western year (18 Nov 2026).
 * Times are shown in Asia/Bangkok whatever the browser's zone. Stored values
 * stay ISO: dates "YYYY-MM-DD", date-times ISO in UTC.
 * Forms hold a date-time as a Bangkok wall-clock "YYYY-MM-DDTHH:mm".
 */
export const TIME_ZONE = 'Asia/Bangkok';
/** Bangkok has no daylight saving: always UTC+7. */
const BANGKOK_OFFSET = '+07:00';
import { BE_OFFSET, TH_MONTHS, TH_MONTHS_SHORT, EN_MONTHS_SHORT, bangkokParts, formatDateParts as formatParts } from '../../../engine/format/dates.ts';

export { BE_OFFSET, formatIsoDate, formatIsoDateTime } from '../../../engine/format/dates.ts';

const pad2 = (n: number) => String(n).padStart(2, '0');
const isTh = (lang: string) => lang !== 'en';

/** The UI kit's calendar texts in Thai (PrimeReact addLocale). */
export const TH_CALENDAR_LOCALE = {
  firstDayOfWeek: 0,
  dayNames: ['อาทิตย์', 'จันทร์', 'อังคาร', 'พุธ', 'พฤหัสบดี', 'ศุกร์', 'เสาร์'],
  dayNamesShort: ['อา.', 'จ.', 'อ.', 'พ.', 'พฤ.', 'ศ.', 'ส.'],
  dayNamesMin: ['อา', 'จ', 'อ', 'พ', 'พฤ', 'ศ', 'ส'],
  monthNames: TH_MONTHS,
  monthNamesShort: TH_MONTHS_SHORT,
  today: 'วันนี้',
  clear: 'ล้าง',
  chooseYear: 'เลือกปี',
  chooseMonth: 'เลือกเดือน',
  chooseDate: 'เลือกวันที่',
  prevMonth: 'เดือนก่อน',
  nextMonth: 'เดือนถัดไป',
  prevYear: 'ปีก่อน',
  nextYear: 'ปีถัดไป',
};

/** The year as the reader counts it. */
export function displayYear(year: number, lang: string): number {
  return isTh(lang) ? year + BE_OFFSET : year;
}





/** An ISO instant → the form's Bangkok wall clock "YYYY-MM-DDTHH:mm". */
export function isoToBangkokInput(value: string): string {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = bangkokParts(d);
  return `${p.y}-${pad2(p.m)}-${pad2(p.d)}T${pad2(p.h)}:${pad2(p.min)}`;
}

/** The form's Bangkok wall clock → an ISO instant (UTC); other text is returned as it came. */
export function bangkokInputToIso(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value)) return value;
  const d = new Date(`${value}:00${BANGKOK_OFFSET}`);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

/** Now as the form's Bangkok wall clock; `.slice(0, 10)` is today's date in Bangkok. */
export function nowBangkokInput(now = new Date()): string {
  return isoToBangkokInput(now.toISOString());
}

/** "YYYY-MM-DD" → a Date at local midnight (what the calendar widget edits). */
export function isoDateToLocal(value: unknown): Date | null {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/** "YYYY-MM-DDTHH:mm" (Bangkok wall clock) → a local Date with the same wall clock, for the widget. */
export function wallInputToLocal(value: unknown): Date | null {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value) : null;
  return m ? new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5])) : null;
}

export function localToIsoDate(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

export function localToWallInput(d: Date): string {
  return `${localToIsoDate(d)}T${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}

/** The text in a date input for a local Date (and its time when `withTime`). */
export function formatLocal(d: Date, lang: string, withTime = false): string {
  const base = formatParts(d.getFullYear(), d.getMonth() + 1, d.getDate(), lang);
  return withTime ? `${base} ${pad2(d.getHours())}:${pad2(d.getMinutes())}` : base;
}

function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\s+/g, '');
  const th = TH_MONTHS_SHORT.findIndex((m) => m.replace(/\s+/g, '') === w || m.replace(/\./g, '') === w.replace(/\./g, ''));
  if (th >= 0) return th + 1;
  const thLong = TH_MONTHS.indexOf(w);
  if (thLong >= 0) return thLong + 1;
  const en = EN_MONTHS_SHORT.findIndex((m) => w.startsWith(m.toLowerCase()));
  return en >= 0 ? en + 1 : null;
}

/**
 * Text typed into a date input → a local Date: "18/11/2569", "18 พ.ย. 2569",
 * "18 Nov 2026", "2026-11-18", with an optional "HH:mm". A year of 2400 or more
 * is a Buddhist-era year. Null when it is not a date.
 */
export function parseDateText(text: string): Date | null {
  const s = text.trim();
  let y: number, mo: number | null, d: number, rest: string;
  let m = /^(\d{4})-(\d{1,2})-(\d{1,2})(.*)$/.exec(s);
  if (m) { y = Number(m[1]); mo = Number(m[2]); d = Number(m[3]); rest = m[4]!; }
  else if ((m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(.*)$/.exec(s))) { d = Number(m[1]); mo = Number(m[2]); y = Number(m[3]); rest = m[4]!; }
  else if ((m = /^(\d{1,2})\s+([^\d\s]+(?:\s?[^\d\s]+)?)\s+(\d{4})(.*)$/.exec(s))) { d = Number(m[1]); mo = monthOf(m[2]!); y = Number(m[3]); rest = m[4]!; }
  else return null;
  if (mo === null || mo < 1 || mo > 12) return null;
  if (y >= 2400) y -= BE_OFFSET;
  const t = /^\s*(?:T|\s)?\s*(\d{1,2}):(\d{2})\s*$/.exec(rest);
  if (rest.trim() && !t) return null;
  const out = new Date(y, mo - 1, d, t ? Number(t[1]) : 0, t ? Number(t[2]) : 0);
  return out.getDate() === d && out.getMonth() === mo - 1 ? out : null;
}
