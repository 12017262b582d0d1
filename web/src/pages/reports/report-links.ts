// read by the boot entry too, so it lives in the boot chunk's report-request.ts (the links below stay with the screen)
export { paramsFromUrl } from './report-request.ts';

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
