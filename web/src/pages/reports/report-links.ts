import type { ReportSummary } from './report-api.ts';

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

/**
 * A column's link for one row (report file `columns[].link`): `{key}` is the row's value of that column,
 * `{$name}` the report's parameter as it ran (defaults filled), so a trial balance's account opens its
 * general ledger for the same dates and company. A value in the path keeps its slashes (`/{source_path}`: a ledger row's
 * document, "tax_invoice/22"); a query parameter left empty is dropped (no `company=`).
 */
export function fillLink(template: string, row: Record<string, unknown>, params: Record<string, unknown>): string {
  const q0 = template.indexOf('?');
  // a value in the path keeps its slashes (a ledger row's source document is "tax_invoice/22"); one in the query is encoded whole
  const text = (v: unknown, inPath: boolean) => {
    if (v === null || v === undefined) return '';
    const e = encodeURIComponent(String(v));
    return inPath ? e.replace(/%2F/gi, '/') : e;
  };
  const filled = template.replace(/\{(\$?)(\w+)\}/g, (_, param: string, k: string, at: number) => text(param ? params[k] : row[k], q0 < 0 || at < q0));
  const q = filled.indexOf('?');
  if (q < 0) return filled;
  const kept = filled.slice(q + 1).split('&').filter((pair) => pair !== '' && !pair.endsWith('='));
  return kept.length ? `${filled.slice(0, q)}?${kept.join('&')}` : filled.slice(0, q);
}
