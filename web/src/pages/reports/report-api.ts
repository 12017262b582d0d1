import { useEffect, useState } from 'react';
import { api } from '../../core/http-client.ts';
import { readStoredSession } from '../../core/stored-session.ts';
import { isBuiltReport } from '../../core/built-reports.ts';
import { reportDefinitionCall } from '../../core/startup-calls.ts';

export interface Label { th: string; en: string }
export interface ReportParam {
  name: string; type: 'date' | 'month' | 'year' | 'integer' | 'boolean' | 'link' | 'enum' | 'text'; label: Label;
  entity?: string; options?: { value: string; label: Label }[]; required?: boolean; default?: string | number | boolean; min?: number; max?: number;
  yearsOf?: { entity: string; column: string };
}
export interface ReportColumn { key: string; label: Label; type: 'string' | 'date' | 'integer' | 'money' | 'qty' | 'boolean'; link?: string; options?: { value: string; label: Label }[] }
export interface ReportSummary {
  name: string; label: Label; parameters: ReportParam[]; menuKey: string; menuGroup: string; routeParam: string | null;
  chart: { type: 'bar' | 'line' | 'pie' | 'doughnut'; label: string; series: string[]; limit?: number } | null;
  columns: ReportColumn[]; totals: string[];
  /** Fixed-layout text files (the RD Prep attachment): GET /api/report/{name}/text/{format}. */
  textExports?: { format: string; label: Label }[];
}
export interface ReportAnswer {
  data: { columns: { key: string; label: string; type: string }[]; rows: Record<string, unknown>[]; totals: Record<string, unknown> };
  meta: { total_count: number; parameters: Record<string, unknown> };
}

/** GET /api/report once per session token: the reports this user may view, as the server's report files declare them. */
let cached: { token: string | null; list: Promise<ReportSummary[]> } | null = null;
export function fetchReports(): Promise<ReportSummary[]> {
  const token = readStoredSession().id_token ?? null;
  if (!cached || cached.token !== token) {
    const list = api.get<{ data: ReportSummary[] }>('/api/report').then((r) => r.data);
    cached = { token, list };
    list.catch(() => { if (cached?.list === list) cached = null; });
  }
  return cached.list;
}

/**
 * GET /api/report/{name}/definition once per session token and name: one report's parameters and columns (a few KB)
 * instead of every report's (GET /api/report, about 110 KB), which a report screen opened cold waited for before it
 * asked its rows. The boot entry sends it with the start-up calls (web/src/boot.ts).
 */
const definitions = new Map<string, { token: string | null; answer: Promise<ReportSummary> }>();
export function fetchReportDefinition(name: string): Promise<ReportSummary> {
  const token = readStoredSession().id_token ?? null;
  const hit = definitions.get(name);
  if (hit && hit.token === token) return hit.answer;
  const answer = api.get<{ data: ReportSummary }>(reportDefinitionCall(name).path).then((r) => r.data);
  definitions.set(name, { token, answer });
  answer.catch(() => { if (definitions.get(name)?.answer === answer) definitions.delete(name); });
  return answer;
}

/**
 * The report of this name: undefined while it loads, null when there is none or this user may not view it (the path
 * is then an entity's, as when the report list leaves it out). A report file built with the page is asked for by its
 * own definition; any other name (the dev server's page has no report names) is looked up in the report list.
 */
export function useReportNamed(name: string | undefined): ReportSummary | null | undefined {
  const [hit, setHit] = useState<ReportSummary | null | undefined>(() => (name ? undefined : null));
  useEffect(() => {
    let live = true;
    if (!name) { setHit(null); return; }
    setHit(undefined);
    if (isBuiltReport(name)) fetchReportDefinition(name).then((r) => live && setHit(r), () => live && setHit(null));
    else fetchReports().then((list) => live && setHit(list.find((r) => r.name === name) ?? null), () => live && setHit(null));
    return () => { live = false; };
  }, [name]);
  return hit;
}
