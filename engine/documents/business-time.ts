/**
 * The business's calendar: document dates, numbering periods and "today" follow the
 * business's time zone (Asia/Bangkok unless configured), never UTC. A document made at
 * 00:30 on 1 January in Bangkok is 17:30 UTC on 31 December, and belongs to the new year.
 */
export const DEFAULT_BUSINESS_TIME_ZONE = 'Asia/Bangkok';

/** A calendar day in the business time zone; month 1–12. */
export interface BusinessDate {
  year: number;
  month: number;
  day: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // throws RangeError for a zone name the runtime does not know
    f = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric', calendar: 'gregory', numberingSystem: 'latn' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a readable error for an unknown IANA zone name (used when reading configuration). */
export function assertTimeZone(timeZone: string): string {
  try { formatter(timeZone); } catch { throw new Error(`"${timeZone}" is not a time zone name such as Asia/Bangkok`); }
  return timeZone;
}

/** The calendar day `now` falls on in `timeZone`. */
export function businessDate(now: Date, timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): BusinessDate {
  const parts = formatter(timeZone).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** Today in the business time zone as YYYY-MM-DD, for "$NOW" defaults of date fields. */
export function businessToday(now: Date = new Date(), timeZone: string = DEFAULT_BUSINESS_TIME_ZONE): string {
  return formatBusinessDate(businessDate(now, timeZone));
}

export function formatBusinessDate(d: BusinessDate): string {
  return `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Reads a YYYY-MM-DD document date (already a business-calendar day, so no zone applies). */
export function parseBusinessDate(text: string): BusinessDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) throw new Error(`"${text}" is not a YYYY-MM-DD date`);
  return { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
}
