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

/** Per time zone: its formatter, and the day of the last second asked for. */
const zones = new Map<string, { format: Intl.DateTimeFormat; second: number; date: BusinessDate }>();

/** The calendar day `at` falls on in `timeZone` (an IANA name such as Asia/Bangkok). */
export function businessDate(at: Date, timeZone = DEFAULT_TIME_ZONE): BusinessDate {
  let zone = zones.get(timeZone);
  if (!zone) {
    zone = { format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), second: Number.NaN, date: { year: 0, month: 0, day: 0 } };
    zones.set(timeZone, zone);
  }
  // formatToParts costs about 10 µs; no time zone's day starts within a second (offsets are whole seconds),
  // so every time within the last second asked for falls on the same day
  const second = Math.floor(at.getTime() / 1000);
  if (second === zone.second) return { ...zone.date };
  const parts = Object.fromEntries(zone.format.formatToParts(at).map((p) => [p.type, p.value]));
  zone.date = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
  zone.second = second;
  return { ...zone.date };
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

/**
 * The moment as the business's wall clock with its offset ("2026-11-29T03:10:00+07:00"): a time written
 * into a document (the e-Tax CreationDateTime) reads the same day and hour as the document's own date.
 */
export function businessIsoTime(at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  const offset = Math.round((wall - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
  const abs = Math.abs(offset);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${offset < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
