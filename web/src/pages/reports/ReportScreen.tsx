import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useAtom } from 'jotai';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { api, type ApiError } from '../../core/http-client.ts';
import { loc } from '../../core/i18n.ts';
import { nextView, tableViewAtom, type TableView } from '../../core/table-view-memory.ts';
import { cellText } from './report-cells.ts';
import { fillLink, paramsFromUrl } from './report-links.ts';
import { PageTitle } from '../../ui/PageTitle.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import type { ReportAnswer, ReportColumn, ReportSummary } from './report-api.ts';
import { ReportParams } from './ReportParams.tsx';
import { downloadReport, type ExportProgress } from './report-export.ts';
import { isSlot, REPORT_PAGE_SIZE, reportChartCall, reportPageCall, reportQuery } from './report-request.ts';
import './report-i18n.ts';

// chart.js is loaded only for a report that draws a chart, and after the table: its code and its first
// drawing (100–200 ms of main thread) no longer stand between the report's rows and the screen
const ReportChart = lazy(() => import('./ReportChart.tsx').then((m) => ({ default: m.ReportChart })));

type Value = string | number | boolean | null;
const PAGE_SIZES = [50, 100, 500, 1000];
const numeric = (c: ReportColumn) => c.type === 'money' || c.type === 'qty' || c.type === 'integer';

/**
 * The screen of every report file (GET /api/report/{name}): its parameters
 * (remembered per path in the table-view memory, so coming back or reloading
 * shows the same report), a paged table with a totals row over every row, the
 * chart beside it when the file declares one, CSV and Excel export with
 * progress, and the PDF. The server decides every figure and what the user may
 * see; the buttons show only what the role's flags allow, the server checks again.
 */
export default function ReportScreen({ report, routeId, canExport, canPrint }: { report: ReportSummary; routeId?: string; canExport: boolean; canPrint: boolean }) {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const [view, setView] = useAtom(tableViewAtom(pathname));
  // the address's parameters (?account=1100&date_from=…, a drill-down or a bookmark) come before the remembered ones
  const [searchParams, setSearchParams] = useSearchParams();
  const fromUrl = useMemo(() => paramsFromUrl(report, searchParams), [report, searchParams]);
  const urlKey = JSON.stringify(fromUrl);
  // a report opened from a link starts on its first page, whatever page was remembered
  useEffect(() => { if (Object.keys(fromUrl).length) setView((prev) => nextView(prev, { page: 1 })); }, [urlKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const [answer, setAnswer] = useState<ReportAnswer | null>(null);
  const [chartRows, setChartRows] = useState<Record<string, unknown>[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [progress, setProgress] = useState<ExportProgress | null>(null);
  const pageSize = view.pageSize ?? REPORT_PAGE_SIZE;
  const page = view.page || 1;

  // the same query the boot entry asks for a report opened cold (report-request.ts): the first page's answer is taken from it
  const query = useMemo(() => reportQuery(report, view, fromUrl, routeId), [view, report, routeId, fromUrl]);
  const key = JSON.stringify(query);

  useEffect(() => {
    let live = true;
    setLoading(true);
    setError(null);
    const call = reportPageCall(report.name, query, page, pageSize);
    api.get<ReportAnswer>(call.path, { searchParams: call.searchParams })
      .then((r) => live && setAnswer(r), (e: ApiError) => live && setError(e.message))
      .finally(() => live && setLoading(false));
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [report.name, key, page, pageSize]);

  useEffect(() => {
    // the chart's rows are the report's first rows in its order, asked for apart from the page shown
    const call = reportChartCall(report, query);
    if (!call) return;
    let live = true;
    api.get<ReportAnswer>(call.path, { searchParams: call.searchParams })
      .then((r) => live && setChartRows(r.data.rows), () => live && setChartRows([]));
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [report.name, key]);

  // the parameters as the server applied them (defaults filled) are what the inputs show
  const shown: Record<string, Value> = { ...(answer?.meta.parameters as Record<string, Value> | undefined), ...query };
  const setParam = (name: string, v: Value) => {
    // a parameter the address gives changes in the address too, so the address stays what the screen shows
    if (name in fromUrl) setSearchParams((prev) => { const next = new URLSearchParams(prev); if (v === null || v === '') next.delete(name); else next.set(name, String(v)); return next; }, { replace: true });
    remember(name, v);
  };
  const remember = (name: string, v: Value) => setView((prev) => nextView(prev, isSlot(name) ? { [name]: v ?? (name === 'isFilterStock' ? false : null) } as Partial<TableView> : { filter: { ...prev.filter, [name]: v } }));

  const exportAs = async (kind: 'csv' | 'xlsx' | 'pdf' | { text: string }) => {
    setError(null);
    setProgress({ rows: 0, total: answer?.meta.total_count ?? 0, bytes: 0 });
    try {
      if (typeof kind === 'object') {
        await downloadReport(`/api/report/${report.name}/text/${kind.text}`, { ...query }, setProgress);
        return;
      }
      const path = kind === 'pdf' ? `/api/report/${report.name}/pdf` : `/api/report/${report.name}/export`;
      await downloadReport(path, { ...query, lang: i18n.language === 'en' ? 'en' : 'th', ...(kind === 'pdf' ? {} : { format: kind }) }, setProgress);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setProgress(null);
    }
  };

  const columns = report.columns;
  const total = answer?.meta.total_count ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const linkOf = (c: ReportColumn, r: Record<string, unknown>) => (c.link ? fillLink(c.link, r, shown) : undefined);

  // headers wrap; cells keep short values (numbers, codes, document numbers, dates) on one line and let only long
  // texts (names, descriptions) wrap, so "POS-BP-01-R2611-00001" is never broken at its hyphens
  const wraps = new Set(columns.filter((c) => c.type === 'string' && (answer?.data.rows ?? []).some((r) => cellText(c, r[c.key], i18n.language).length > 24)).map((c) => c.key));
  const table = answer && (
    <div className={`bo-table-wrap${loading ? ' is-loading' : ''}`} style={{ flex: '2 1 480px', minWidth: 0, overflowX: 'auto' }}>
      <table className="bo-table bo-report-table" data-testid="report-table" data-total={total}>
        <thead>
          <tr>{columns.map((c) => <th key={c.key} scope="col" className={numeric(c) ? 'bo-num-cell' : undefined}>{loc(c.label, i18n.language)}</th>)}</tr>
        </thead>
        <tbody>
          {answer.data.rows.map((r, i) => (
            <tr key={i}>
              {columns.map((c) => {
                const text = cellText(c, r[c.key], i18n.language);
                const href = c.link ? linkOf(c, r) : undefined;
                return <td key={c.key} data-col={c.key} className={numeric(c) ? 'bo-num-cell' : undefined} style={wraps.has(c.key) ? undefined : { whiteSpace: 'nowrap' }}>{href && text ? <Link to={href}>{text}</Link> : text}</td>;
              })}
            </tr>
          ))}
          {answer.data.rows.length === 0 && (
            <tr><td colSpan={columns.length} className="bo-muted" data-testid="report-empty" style={{ textAlign: 'center', padding: '1.5rem' }}>{t('report.empty')}</td></tr>
          )}
        </tbody>
        {/* a totals row of zeros above "no rows" read as a real figure: it shows only when there are rows */}
        {report.totals.length > 0 && answer.data.rows.length > 0 && (
          <tfoot>
            <tr data-testid="report-totals">
              {columns.map((c, i) => (
                <td key={c.key} data-col={c.key} className={numeric(c) ? 'bo-num-cell' : undefined}>
                  <strong>{i === 0 ? t('report.total') : report.totals.includes(c.key) ? cellText(c, answer.data.totals[c.key], i18n.language) : ''}</strong>
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );

  return (
    <section className="bo-page" data-testid="report-screen" data-report={report.name}>
      <PageTitle actions={(
        <>
          {canExport && <button type="button" className="p-button p-button-outlined p-button-sm" data-testid="report-export-csv" disabled={!!progress} onClick={() => void exportAs('csv')}>{t('report.export_csv')}</button>}
          {canExport && <button type="button" className="p-button p-button-outlined p-button-sm" data-testid="report-export-xlsx" disabled={!!progress} onClick={() => void exportAs('xlsx')}>{t('report.export_xlsx')}</button>}
          {canExport && (report.textExports ?? []).map((x) => (
            <button key={x.format} type="button" className="p-button p-button-outlined p-button-sm" data-testid={`report-text-${x.format}`} disabled={!!progress} onClick={() => void exportAs({ text: x.format })}>{loc(x.label, i18n.language)}</button>
          ))}
          {canPrint && <button type="button" className="p-button p-button-outlined p-button-sm" data-testid="report-print" disabled={!!progress} onClick={() => void exportAs('pdf')}>{t('report.print')}</button>}
        </>
      )}>{loc(report.label, i18n.language)}</PageTitle>
      <ReportParams report={report} values={shown} onChange={setParam} fixed={routeId ? report.routeParam : null} />
      {progress && (
        <div role="progressbar" data-testid="report-progress" aria-valuemin={0} aria-valuemax={progress.total || undefined} aria-valuenow={progress.rows ?? undefined} className="bo-muted">
          {progress.rows !== null
            ? t('report.exported_rows', { done: progress.rows, total: progress.total })
            : t('report.exported_bytes', { kb: Math.round(progress.bytes / 1024), total: progress.total })}
          {progress.rows !== null && progress.total > 0 && <progress max={progress.total} value={progress.rows} style={{ marginLeft: '0.5rem' }} />}
        </div>
      )}
      {error && <p role="alert" className="bo-error-text">{error}</p>}
      {!answer && !error && <Spinner />}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: '1rem', alignItems: 'flex-start' }}>
        {report.chart && chartRows && answer && <Suspense fallback={null}><ReportChart report={report} rows={chartRows} /></Suspense>}
        {table}
      </div>
      {answer && total > 0 && (
        <div className="bo-report-paging" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', marginTop: '0.5rem' }}>
          <span className="bo-muted" data-testid="report-count">{t('report.rows', { count: total })}</span>
          <button type="button" className="p-button p-button-text p-button-sm" disabled={page <= 1} onClick={() => setView((prev) => nextView(prev, { page: page - 1 }))}>{t('report.prev')}</button>
          <span>{t('report.page', { page, pages })}</span>
          <button type="button" className="p-button p-button-text p-button-sm" disabled={page >= pages} onClick={() => setView((prev) => nextView(prev, { page: page + 1 }))}>{t('report.next')}</button>
          <select className="p-inputtext p-component" aria-label="page size" value={pageSize} onChange={(e) => setView((prev) => nextView(prev, { pageSize: Number(e.target.value) }))}>
            {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
      )}
    </section>
  );
}
