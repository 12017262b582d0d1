import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { businessToday } from '../../../engine/documents/business-time.ts';
import { fieldTokens, numberMatcher, parseBusinessDate } from '../../../engine/documents/numbering-format.ts';
import { formatIsoDate } from '../../../engine/format/dates.ts';

type Row = Record<string, unknown>;

/**
 * What a document numbered on posting will get when it is issued: its number series (the
 * number's text before the running number, "TPT-IV202611-") and its date (the date field's
 * value, or today when it is empty: the server fills it so). null when nothing is numbered on posting.
 * `linked` gives the values of linked records the pattern names ({your_company_id.code}).
 */
export function issuePreview(entity: EntitySchema, record: Row, linked: Record<string, string>, lang: string, now = new Date()): { series: string; date: string } | null {
  const n = entity.numbering;
  if (n?.assignOn !== 'post' || !n.dateField) return null;
  const stored = record[n.dateField];
  const iso = typeof stored === 'string' && parseBusinessDate(stored) ? stored : businessToday(now);
  const values: Record<string, string> = {};
  for (const token of fieldTokens(n.pattern)) {
    const v = token.includes('.') ? linked[token] : record[token];
    if (v !== undefined && v !== null && v !== '') values[token] = String(v);
  }
  const series = `${numberMatcher(n, parseBusinessDate(iso)!, values).prefix}…`;
  return { series, date: formatIsoDate(iso, lang) };
}
