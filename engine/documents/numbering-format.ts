import type { NumberingSeries } from '../schema/schema-types.ts';
import type { BusinessDate } from './business-time.ts';

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The counter a number is drawn from: one per entity (and per scope, e.g. a company), and per year or month when the series resets. */
export function seriesKey(entity: string, series: NumberingSeries, date: BusinessDate, scope = ''): string {
  const base = scope ? `${entity}@${scope}` : entity;
  switch (series.resetEvery ?? 'never') {
    case 'year': return `${base}:${date.year}`;
    case 'month': return `${base}:${date.year}-${pad(date.month, 2)}`;
    default: return base;
  }
}

/** The pattern with every token but the sequence filled in for that business date. */
function withDate(series: NumberingSeries, date: BusinessDate): string {
  const y = String(date.year);
  return series.pattern
    .replaceAll('{prefix}', series.prefix)
    .replaceAll('{YYYY}', y)
    .replaceAll('{YY}', y.slice(2))
    .replaceAll('{MM}', pad(date.month, 2))
    .replaceAll('{DD}', pad(date.day, 2));
}

/** Renders a pattern such as "{prefix}{YYYY}{MM}-{seq:4}" for one sequence number on one business date. */
export function formatNumber(series: NumberingSeries, date: BusinessDate, seq: number): string {
  return withDate(series, date).replace(/\{seq:([1-9])\}/g, (_, n: string) => pad(seq, Number(n)));
}

/**
 * How to find the numbers this series already gave in a period: the literal
 * text before the sequence (for a LIKE prefix) and a matcher that reads the
 * sequence back out of a number.
 */
export function numberMatcher(series: NumberingSeries, date: BusinessDate): { prefix: string; seqOf(no: string): number | null } {
  const text = withDate(series, date);
  const at = text.search(/\{seq:[1-9]\}/);
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const parts = text.split(/\{seq:[1-9]\}/);
  const re = new RegExp(`^${parts.map(escape).join('(\\d+)')}$`);
  return {
    prefix: text.slice(0, at),
    seqOf: (no) => { const m = re.exec(no); return m ? Number(m[1]) : null; },
  };
}
