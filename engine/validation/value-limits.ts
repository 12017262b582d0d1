/**
 * Limits on values that JavaScript accepts but a database, or an honest
 * reading of the field, does not: impossible calendar dates, years PostgreSQL
 * cannot store, numbers with more decimals than their column keeps, JSON
 * nested deeper than any real document. Both dialects give the same 400.
 */

/** Years a date or datetime may have: PostgreSQL refuses year 0 and JavaScript reaches year 275760. */
export const MIN_YEAR = 1000;
export const MAX_YEAR = 9999;
/** A json field's value: nesting and size past these is an attack or a mistake, never a record. */
export const JSON_MAX_DEPTH = 32;
export const JSON_MAX_BYTES = 256 * 1024;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:?\d{2})?$/;

function daysIn(year: number, month: number): number {
  return [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

function validDay(y: number, m: number, d: number): boolean {
  return y >= MIN_YEAR && y <= MAX_YEAR && m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m);
}

/** "2026-02-28" yes; "2026-02-30", "0000-01-01" no. */
export function isCalendarDate(s: string): boolean {
  const m = DATE.exec(s);
  return !!m && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** An ISO 8601 date and time whose calendar part is a real day in the allowed years. */
export function isSaneDateTime(s: string): boolean {
  const m = DATE_TIME.exec(s);
  if (!m || !validDay(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  return Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6] ?? 0) <= 59 && !Number.isNaN(Date.parse(s));
}

/**
 * How many decimal places a number really has, read from its shortest
 * round-trip text ("12.3400000001" has 10), so a value is never judged
 * through the rounding error of multiplying it by a power of ten.
 */
export function decimalPlaces(n: number): number {
  if (!Number.isFinite(n)) return Infinity;
  const [mantissa, exp] = String(n).toLowerCase().split('e');
  const frac = mantissa!.split('.')[1]?.length ?? 0;
  return Math.max(0, frac - Number(exp ?? 0));
}

/** The exact integer value × 10^scale of a number with at most `scale` decimals (no float multiplication). */
export function toScaledInteger(n: number, scale: number): number {
  if (scale === 0) return Math.round(n);
  const text = n.toFixed(scale);
  return Number(text.replace('.', ''));
}

/** Depth and size of a JSON value, without recursion (a 20,000-deep value must not exhaust the stack). */
export function jsonProblem(v: unknown): string | null {
  const stack: [unknown, number][] = [[v, 0]];
  let nodes = 0;
  while (stack.length) {
    const [x, depth] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (depth >= JSON_MAX_DEPTH) return `must not be nested more than ${JSON_MAX_DEPTH} levels deep`;
    if (++nodes > 100_000) return 'is too large';
    for (const child of Object.values(x)) stack.push([child, depth + 1]);
  }
  let size: number;
  try { size = JSON.stringify(v)?.length ?? 0; } catch { return 'is not valid JSON'; }
  return size > JSON_MAX_BYTES ? `must be at most ${JSON_MAX_BYTES / 1024} KB` : null;
}
