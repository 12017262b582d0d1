import { formatIsoMonth } from '../../../../engine/format/dates.ts';
import { formatLocal, isoDateToLocal } from '../../core/thai-dates.ts';
import type { ReportColumn } from './report-api.ts';

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QTY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 4 });

/** The cell as the screen shows it: a code's label, money, quantities, dates and months in the reader's calendar. */
export function cellText(c: Pick<ReportColumn, 'type' | 'options'>, v: unknown, lang: string): string {
  if (v === null || v === undefined || v === '') return '';
  const option = c.options?.find((o) => o.value === v);
  if (option) return lang === 'en' ? option.label.en : option.label.th;
  switch (c.type) {
    case 'money': return MONEY.format(Number(v));
    case 'qty': case 'integer': return QTY.format(Number(v));
    case 'date': { const d = isoDateToLocal(v); return d ? formatLocal(d, lang) : String(v); }
    case 'boolean': return v ? '✓' : '';
    // a month a report groups by ("2026-11") reads as "พ.ย. 2569"; the exports keep the ISO text
    default: return formatIsoMonth(String(v), lang) ?? String(v);
  }
}
