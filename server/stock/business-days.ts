import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

/**
 * The stock code's days are business days (`BUSINESS_TIME_ZONE`, Asia/Bangkok
 * by default), never UTC days. The ledger keeps instants (`movement_date`);
 * a movement belongs to the business day its instant falls on, a document's
 * movements are dated the start of its `doc_date` in the business zone, and a
 * day D is the instants from the start of D to the start of D + 1. So a count
 * entered at 00:30 in Bangkok on 1 November (17:30 UTC on 31 October) belongs
 * to 1 November, and so does a receipt dated 1 November (17:00 UTC on 31 October).
 */

const DAY_MS = 86_400_000;
/** Per zone and date: the start found (the search below costs a few dozen formatter calls). */
const starts = new Map<string, string>();

/** The calendar date after `date` (YYYY-MM-DD). */
export const nextDate = (date: string): string => new Date(Date.parse(`${date}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * The first instant of business day `date`, as a UTC ISO string. Found by
 * bisection on whole seconds (every zone's offset is whole seconds), so a day
 * that starts at 01:00 because of daylight saving is right too.
 */
export function businessDayStart(date: string, timeZone = businessClock.timeZone): string {
  const key = `${timeZone}|${date}`;
  const hit = starts.get(key);
  if (hit) return hit;
  // no zone is more than 14 hours from UTC: the start lies within 15 hours of midnight UTC
  const midnight = Date.parse(`${date}T00:00:00.000Z`) / 1000;
  let lo = midnight - 15 * 3600;
  let hi = midnight + 15 * 3600;
  // invariant: the second lo is before the day, the second hi is in it or after
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (businessToday(new Date(mid * 1000), timeZone) >= date) hi = mid;
    else lo = mid;
  }
  const start = new Date(hi * 1000).toISOString();
  if (starts.size > 5000) starts.clear();
  starts.set(key, start);
  return start;
}

/** The first instant after business day `date`: a day's movements are those from its start up to this. */
export const businessDayEnd = (date: string, timeZone = businessClock.timeZone): string => businessDayStart(nextDate(date), timeZone);

/** The business day an instant (an ISO string or a Date, as the drivers hand datetimes back) falls on. */
export function businessDayOf(at: string | Date, timeZone = businessClock.timeZone): string {
  return businessToday(at instanceof Date ? at : new Date(at), timeZone);
}

/** Today in the business zone, by the business clock (tests move it). */
export const businessTodayNow = (): string => businessToday(businessClock.now(), businessClock.timeZone);
