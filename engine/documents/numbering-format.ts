import type { NumberingSeries } from '../schema/schema-types.ts';
import type { BusinessDate } from './business-time.ts';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/**
 * Field tokens of a pattern: `{branch_code}` (a field of the document) or
 * `{your_company_id.code}` (a field of the record a link names). Lower case,
 * so they never clash with the date tokens; `{prefix}` is the series' own.
 */
const FIELD_TOKEN = /\{([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)?)\}/g;

/** The field tokens a pattern uses (`your_company_id.code`, `branch_code`), without `{prefix}`. */
export function fieldTokens(pattern: string): string[] {
  return [...new Set([...pattern.matchAll(FIELD_TOKEN)].map((m) => m[1]!).filter((t) => t !== 'prefix'))];
}

/** The counter a number is drawn from: one per entity (and per scope, e.g. a company), and per year or month when the series resets. */
export function seriesKey(entity: string, series: NumberingSeries, date: BusinessDate, scope = ''): string {
  const base = scope ? `${entity}@${scope}` : entity;
  switch (series.resetEvery ?? 'never') {
    case 'year': return `${base}:${date.year}`;
    case 'month': return `${base}:${date.year}-${pad(date.month, 2)}`;
    default: return base;
  }
}

/**
 * The row that orders one series across its periods (a series with a date rule
 * locks it before it reads the last issued date). Its own key, so it never
 * meets a counter: counters end in the period or the bare scope, this in "!order".
 */
export function seriesOrderKey(entity: string, scope = ''): string {
  return `${scope ? `${entity}@${scope}` : entity}!order`;
}

/** "YYYY-MM-DD" (a date field's stored form) as a business date; null when it is not one. */
export function parseBusinessDate(value: unknown): BusinessDate | null {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  return m ? { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) } : null;
}

/** The pattern with every token but the sequence filled in for that business date (and the record's field tokens). */
function withDate(series: NumberingSeries, date: BusinessDate, values: Record<string, string> = {}): string {
  const y = String(date.year);
  return series.pattern
    .replaceAll('{YYYY}', y)
    .replaceAll('{YY}', y.slice(2))
    .replaceAll('{MM}', pad(date.month, 2))
    .replaceAll('{DD}', pad(date.day, 2))
    // last, and without braces, so a value can never be read as a token
    .replace(FIELD_TOKEN, (_, name: string) => (name === 'prefix' ? series.prefix : (values[name] ?? '').replace(/[{}]/g, '')));
}

/**
 * The pattern for that business date cut around its sequence tokens: `text[0]`, the sequence padded to
 * `widths[0]`, `text[1]`, … (for a statement that makes the number from a counter it draws, in SQL).
 */
export function numberPieces(series: NumberingSeries, date: BusinessDate, values: Record<string, string> = {}): { text: string[]; widths: number[] } {
  const cut = withDate(series, date, values).split(/\{seq:([1-9])\}/);
  return { text: cut.filter((_, i) => i % 2 === 0), widths: cut.filter((_, i) => i % 2 === 1).map(Number) };
}

/** Renders a pattern such as "{prefix}{YYYY}{MM}-{seq:4}" for one sequence number on one business date. */
export function formatNumber(series: NumberingSeries, date: BusinessDate, seq: number, values: Record<string, string> = {}): string {
  return withDate(series, date, values).replace(/\{seq:([1-9])\}/g, (_, n: string) => pad(seq, Number(n)));
}

/**
 * How to find the numbers this series already gave in a period: the literal
 * text before the sequence (for a LIKE prefix) and a matcher that reads the
 * sequence back out of a number.
 */
export function numberMatcher(series: NumberingSeries, date: BusinessDate, values: Record<string, string> = {}): { prefix: string; seqOf(no: string): number | null } {
  const text = withDate(series, date, values);
  const at = text.search(/\{seq:[1-9]\}/);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = text.split(/\{seq:[1-9]\}/);
  const re = new RegExp(`^${parts.map(escape).join('(\\d+)')}$`);
  return {
    prefix: text.slice(0, at),
    seqOf: (no) => { const m = re.exec(no); return m ? Number(m[1]) : null; },
  };
}
