/**
 * Document dates, numbering periods and "today" follow the business's time
 * zone, never UTC: a document made at 00:30 on 1 January in Bangkok (17:30 UTC
 * on 31 December) belongs to the new year.
 */
export const DEFAULT_TIME_ZONE = 'Asia/Bangkok';

export interface BusinessDate {
  year: number;
  month: number;
  day: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The calendar day `at` falls on in `timeZone` (an IANA name such as Asia/Bangkok). */
export function businessDate(at: Date, timeZone = DEFAULT_TIME_ZONE): BusinessDate {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

/** "YYYY-MM-DD" of that day, the stored form of a date field. */
export function businessToday(at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const d = businessDate(at, timeZone);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Whether a time zone name is one this runtime knows (a setting must be checked before it is used). */
export function isTimeZone(name: string): boolean {
  try { new Intl.DateTimeFormat('en', { timeZone: name }); return true; } catch { return false; }
}
