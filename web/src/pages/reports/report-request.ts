import type { EarlyCall } from '../../core/early-requests.ts';
import type { TableView } from '../../core/table-view.ts';
import type { ReportSummary } from './report-api.ts';

/**
 * The rows a report screen (ReportScreen.tsx) asks for: one function for the screen and for the boot entry
 * (web/src/boot.ts), which asks the same rows as soon as the report's definition is in, before the screen's code
 * has loaded, so the screen takes that answer (core/early-requests.ts). The defaults of the parameters not given are
 * the server's: the screen shows them from the answer (`meta.parameters`). No library here: part of the boot chunk.
 */
type Value = string | number | boolean | null;

/**
 * The report's parameters the address gives (/general_ledger?account=1100&date_from=…): a drill-down
 * from another report, or a bookmark. Names the report does not declare are ignored; values are typed
 * as the parameter's input holds them (a link's record id and integers as numbers, a boolean as true/false).
 */
export function paramsFromUrl(report: Pick<ReportSummary, 'parameters'>, search: URLSearchParams): Record<string, Value> {
  const out: Record<string, Value> = {};
  for (const p of report.parameters) {
    const raw = search.get(p.name);
    if (raw === null || raw === '') continue;
    if (p.type === 'boolean') out[p.name] = raw === 'true' || raw === '1';
    else if (p.type === 'link' || p.type === 'integer' || p.type === 'year') { if (/^-?\d+$/.test(raw)) out[p.name] = Number(raw); }
    else out[p.name] = raw;
  }
  return out;
}

/** Parameters the spec's table-view memory has a slot for; the others are kept in the view's `filter`. */
export const REPORT_SLOTS = ['shelfLifeMonth', 'selectedInventory', 'isFilterStock', 'selectYear', 'selectMachinary', 'expirationMonth'] as const;
export const isSlot = (n: string): n is typeof REPORT_SLOTS[number] => (REPORT_SLOTS as readonly string[]).includes(n);

/** The rows per page when the user has not chosen. */
export const REPORT_PAGE_SIZE = 100;

/** The remembered value of a parameter: its slot of the table-view memory, else the view's filter. */
export function remembered(view: TableView, name: string): Value | undefined {
  const v = isSlot(name) ? view[name] : (view.filter as Record<string, Value | undefined>)[name];
  // an unset slot is null (or false for isFilterStock): the server's default applies
  return v === null || (name === 'isFilterStock' && v === false) ? undefined : v;
}

/** The parameters to send: the address's (a drill-down, a bookmark) before the remembered ones, and the path's id. */
export function reportQuery(report: Pick<ReportSummary, 'parameters' | 'routeParam'>, view: TableView, fromUrl: Record<string, Value>, routeId?: string): Record<string, string> {
  const q: Record<string, string> = {};
  for (const p of report.parameters) {
    const v = p.name in fromUrl ? fromUrl[p.name] : remembered(view, p.name);
    if (v !== undefined && v !== null && v !== '') q[p.name] = String(v);
  }
  if (routeId && report.routeParam) q[report.routeParam] = routeId;
  return q;
}

/** One page of the report's rows. */
export function reportPageCall(name: string, query: Record<string, string>, page: number, limit: number): EarlyCall {
  return { method: 'get', path: `/api/report/${name}`, searchParams: { ...query, page, limit } };
}

/** The chart's rows: the report's first rows in its order, apart from the page shown. */
export function reportChartCall(report: Pick<ReportSummary, 'name' | 'chart'>, query: Record<string, string>): EarlyCall | null {
  return report.chart ? reportPageCall(report.name, query, 1, report.chart.limit ?? 50) : null;
}

/** What the screen asks first for this view and address: its page of rows, and the chart's rows when it draws one. */
export function firstReportCalls(report: ReportSummary, view: TableView, search: URLSearchParams, routeId?: string): EarlyCall[] {
  const query = reportQuery(report, view, paramsFromUrl(report, search), routeId);
  const chart = reportChartCall(report, query);
  return [reportPageCall(report.name, query, view.page || 1, view.pageSize ?? REPORT_PAGE_SIZE), ...(chart ? [chart] : [])];
}
