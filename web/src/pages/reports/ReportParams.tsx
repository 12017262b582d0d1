import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { DateInput } from '../../renderer/fields/DateInput.tsx';
import { MonthInput } from './MonthInput.tsx';
import type { ReportParam, ReportSummary } from './report-api.ts';

type Value = string | number | boolean | null;

/** The records a link parameter offers (the first 500 the user may see), by code and name. */
function useRecords(entity: string | undefined): { id: number; text: string }[] {
  const [rows, setRows] = useState<{ id: number; text: string }[]>([]);
  useEffect(() => {
    if (!entity) return;
    let live = true;
    api.get<{ data: Record<string, unknown>[] }>(`/api/${entity}`, { searchParams: { limit: 500 } }).then((r) => {
      if (live) setRows(r.data.map((x) => ({ id: Number(x.id), text: [x.code, x.name ?? x.name_th ?? x.doc_no].filter((v) => v !== null && v !== undefined && v !== '').join(' ') || String(x.id) })));
    }, () => live && setRows([]));
    return () => { live = false; };
  }, [entity]);
  return rows;
}

/** GET /api/report/{name}/year: the years that have data, for a year parameter with yearsOf. */
function useYears(report: string, p: ReportParam): number[] {
  const [years, setYears] = useState<number[]>([]);
  useEffect(() => {
    if (p.type !== 'year' || !p.yearsOf) return;
    let live = true;
    api.get<{ data: number[] }>(`/api/report/${report}/year`).then((r) => live && setYears(r.data), () => live && setYears([]));
    return () => { live = false; };
  }, [report, p]);
  return years;
}

function ParamInput({ report, p, value, onChange }: { report: string; p: ReportParam; value: Value; onChange: (v: Value) => void }) {
  const { t, i18n } = useTranslation();
  const records = useRecords(p.type === 'link' ? p.entity : undefined);
  const years = useYears(report, p);
  const label = loc(p.label, i18n.language);
  const testId = `report-param-${p.name}`;
  // a required choice with one record the user may see (one warehouse) is that record, not a red "please choose"
  const only = p.type === 'link' && p.required && (value === null || value === undefined) && records.length === 1 ? records[0]!.id : null;
  useEffect(() => { if (only !== null) onChange(only); }, [only]); // eslint-disable-line react-hooks/exhaustive-deps
  switch (p.type) {
    case 'date':
      return <DateInput value={typeof value === 'string' ? value : ''} lang={i18n.language} ariaLabel={label} onChange={(v) => onChange(v || null)} />;
    case 'boolean':
      return <input type="checkbox" data-testid={testId} aria-label={label} checked={value === true} onChange={(e) => onChange(e.target.checked)} />;
    case 'link':
      return (
        <select className="p-inputtext p-component" data-testid={testId} aria-label={label} value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
          {!p.required && <option value="">{t('report.any')}</option>}
          {p.required && value === null && <option value="">—</option>}
          {records.map((r) => <option key={r.id} value={r.id}>{r.text}</option>)}
        </select>
      );
    case 'enum':
      return (
        <select className="p-inputtext p-component" data-testid={testId} aria-label={label} value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value || null)}>
          {!p.required && <option value="">{t('report.any')}</option>}
          {p.options?.map((o) => <option key={o.value} value={o.value}>{loc(o.label, i18n.language)}</option>)}
        </select>
      );
    case 'year': {
      const shown = [...new Set([...years, ...(typeof value === 'number' ? [value] : [])])].sort((a, b) => b - a);
      // Buddhist-era years in Thai, as every date the app shows
      return (
        <select className="p-inputtext p-component" data-testid={testId} aria-label={label} value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))}>
          {!p.required && <option value="">{t('report.any')}</option>}
          {shown.map((y) => <option key={y} value={y}>{i18n.language === 'th' ? y + 543 : y}</option>)}
        </select>
      );
    }
    case 'month':
      return <MonthInput value={typeof value === 'string' ? value : ''} lang={i18n.language} label={label} testId={testId} onChange={onChange} />;
    case 'integer':
      return <input type="number" className="p-inputtext p-component" data-testid={testId} aria-label={label} min={p.min} max={p.max} value={value === null ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? null : Number(e.target.value))} />;
    default:
      return <input type="text" className="p-inputtext p-component" data-testid={testId} aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || null)} />;
  }
}

/** One input per parameter of the report file (the route's /{id} parameter is fixed by the path and not shown). */
export function ReportParams({ report, values, onChange, fixed }: { report: ReportSummary; values: Record<string, Value>; onChange: (name: string, v: Value) => void; fixed?: string | null }) {
  const { i18n } = useTranslation();
  return (
    <div className="bo-report-params" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.75rem', alignItems: 'flex-end', marginBottom: '0.75rem' }}>
      {report.parameters.filter((p) => p.name !== fixed).map((p) => (
        <label key={p.name} className="bo-picker" data-testid={`report-param-label-${p.name}`} style={{ display: 'flex', flexDirection: 'column', gap: '0.25rem' }}>
          <span>{loc(p.label, i18n.language)}</span>
          <ParamInput report={report.name} p={p} value={values[p.name] ?? null} onChange={(v) => onChange(p.name, v)} />
        </label>
      ))}
    </div>
  );
}
