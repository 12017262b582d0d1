import type { NumberingSeries } from '../schema/schema-types.ts';
import type { BusinessDate } from './business-time.ts';

/**
 * The counter a number is drawn from: one per entity, per value of `perField` when the
 * series has one (a company's own series), and per year or month when it resets. The
 * period is the business calendar's (business-time.ts), never UTC's.
 */
export function seriesKey(entity: string, series: NumberingSeries, day: BusinessDate, scope?: unknown): string {
  // keys of series without perField stay as they were, so existing counters carry on
  const base = series.perField ? `${entity}@${scope ?? ''}` : entity;
  const y = String(day.year);
  const m = String(day.month).padStart(2, '0');
  switch (series.resetEvery ?? 'never') {
    case 'year': return `${base}:${y}`;
    case 'month': return `${base}:${y}-${m}`;
    default: return base;
  }
}

const SEQ = /\{seq:([1-9])\}/g;

function renderDate(series: NumberingSeries, day: BusinessDate, text: string): string {
  const y = String(day.year);
  return text
    .replaceAll('{prefix}', series.prefix)
    .replaceAll('{YYYY}', y)
    .replaceAll('{YY}', y.slice(2))
    .replaceAll('{MM}', String(day.month).padStart(2, '0'))
    .replaceAll('{DD}', String(day.day).padStart(2, '0'));
}

/** Renders a pattern such as "{prefix}{YYYY}{MM}-{seq:4}" for one sequence number on a business day. */
export function formatNumber(series: NumberingSeries, day: BusinessDate, seq: number): string {
  return renderDate(series, day, series.pattern).replace(SEQ, (_, n: string) => String(seq).padStart(Number(n), '0'));
}

/**
 * The fixed text around the running number on this day: "BN202611-" and "" for
 * "{prefix}{YYYY}{MM}-{seq:4}". Numbers of the same period share it, which is how the
 * server finds the highest number already used.
 */
export function numberShape(series: NumberingSeries, day: BusinessDate): { head: string; tail: string } {
  const at = series.pattern.search(SEQ);
  const end = series.pattern.indexOf('}', at) + 1;
  // patterns have one {seq:N} (the meta-schema requires it); the text after it is the tail
  return { head: renderDate(series, day, series.pattern.slice(0, at)), tail: renderDate(series, day, series.pattern.slice(end)) };
}

/** The running number inside `value` when it has this day's shape ("BN202611-0042" → 42), else null. */
export function sequenceOf(series: NumberingSeries, day: BusinessDate, value: string): number | null {
  const { head, tail } = numberShape(series, day);
  if (!value.startsWith(head) || !value.endsWith(tail) || value.length <= head.length + tail.length) return null;
  const digits = value.slice(head.length, value.length - tail.length);
  return /^\d+$/.test(digits) && Number.isSafeInteger(Number(digits)) ? Number(digits) : null;
}
