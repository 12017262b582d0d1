import { EN_MONTHS_SHORT, TH_MONTHS_SHORT } from '../../../../engine/format/dates.ts';
import { displayYear, formatLocal, isoDateToLocal } from '../../core/thai-dates.ts';
import type { ReportColumn } from './report-api.ts';

const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QTY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 4 });

/** The cell as the screen shows it (the exports keep ISO text). "YYYY-MM" (a month a report groups by) as the reader counts it: "พ.ย. 2569" in Thai, "Nov 2026" in English. */
function monthText(v: string, lang: string): string | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(v);
  return m ? `${(lang === 'en' ? EN_MONTHS_SHORT : TH_MONTHS_SHORT)[Number(m[2]) - 1]} ${displayYear(Number(m[1]), lang)}` : null;
}

export function cellText(c: Pick<ReportColumn, 'type' | 'options'>, v: unknown, lang: string): string {
  if (v === null || v === undefined || v === '') return '';
  const option = c.options?.find((o) => o.value === v);
  if (option) return lang === 'en' ? option.label.en : option.label.th;
  switch (c.type) {
    case 'money': return MONEY.format(Number(v));
    case 'qty': case 'integer': return QTY.format(Number(v));
    case 'date': { const d = isoDateToLocal(v); return d ? formatLocal(d, lang) : String(v); }
    case 'boolean': return v ? '✓' : '';
    default: return monthText(String(v), lang) ?? String(v);
  }
}
