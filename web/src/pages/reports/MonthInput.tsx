import { EN_MONTHS_SHORT, TH_MONTHS } from '../../../../engine/format/dates.ts';
import { displayYear } from '../../core/thai-dates.ts';

/**
 * A tax month ("YYYY-MM") as two selects: the month's name in the reader's language and the year
 * (Buddhist era in Thai), as every date of the app shows. The browser's own month input showed
 * "November 2026" in English on the Thai screens.
 */
export function MonthInput({ value, lang, label, testId, onChange }: { value: string; lang: string; label: string; testId: string; onChange: (v: string | null) => void }) {
  const m = /^(\d{4})-(\d{2})$/.exec(value);
  const now = new Date();
  const year = m ? Number(m[1]) : now.getFullYear();
  const month = m ? Number(m[2]) : now.getMonth() + 1;
  const years = Array.from({ length: 8 }, (_, i) => now.getFullYear() + 1 - i);
  if (!years.includes(year)) years.push(year);
  const names = lang === 'en' ? EN_MONTHS_SHORT : TH_MONTHS;
  const set = (y: number, mo: number) => onChange(`${y}-${String(mo).padStart(2, '0')}`);
  return (
    <span data-testid={testId} data-value={m ? value : ''} style={{ display: 'flex', gap: '0.25rem' }}>
      <select className="p-inputtext p-component" aria-label={label} data-testid={`${testId}-month`} value={month} onChange={(e) => set(year, Number(e.target.value))}>
        {names.map((n, i) => <option key={n} value={i + 1}>{n}</option>)}
      </select>
      <select className="p-inputtext p-component" aria-label={`${label} (${lang === 'en' ? 'year' : 'ปี'})`} data-testid={`${testId}-year`} value={year} onChange={(e) => set(Number(e.target.value), month)}>
        {years.sort((a, b) => b - a).map((y) => <option key={y} value={y}>{displayYear(y, lang)}</option>)}
      </select>
    </span>
  );
}
