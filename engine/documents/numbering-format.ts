import type { NumberingSeries } from '../schema/schema-types.ts';

/** The counter a number is drawn from: one per entity, and per year or month when the series resets. */
export function seriesKey(entity: string, series: NumberingSeries, date: Date): string {
  const y = date.getUTCFullYear();
  const m = String(date.getUTCMonth() + 1).padStart(2, '0');
  switch (series.resetEvery ?? 'never') {
    case 'year': return `${entity}:${y}`;
    case 'month': return `${entity}:${y}-${m}`;
    default: return entity;
  }
}

/** Renders a pattern such as "{prefix}{YYYY}{MM}-{seq:4}" for one sequence number. */
export function formatNumber(series: NumberingSeries, date: Date, seq: number): string {
  const y = String(date.getUTCFullYear());
  return series.pattern
    .replaceAll('{prefix}', series.prefix)
    .replaceAll('{YYYY}', y)
    .replaceAll('{YY}', y.slice(2))
    .replaceAll('{MM}', String(date.getUTCMonth() + 1).padStart(2, '0'))
    .replaceAll('{DD}', String(date.getUTCDate()).padStart(2, '0'))
    .replace(/\{seq:([1-9])\}/g, (_, n: string) => String(seq).padStart(Number(n), '0'));
}
