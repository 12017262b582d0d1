import { Ajv2020 } from 'ajv/dist/2020.js';
import metaSchema from './report.meta-schema.json' with { type: 'json' };
import type { EntitySchema } from '../schema/schema-types.ts';
import { hasColumn, softDeleteColumn, SYSTEM_FIELDS } from '../schema/schema-types.ts';
import { SchemaLoadError, type SchemaProblem, type SchemaSource } from '../schema/schema-loader.ts';
import type { Cond, Expr, Join, ReportDef, ScalarQuery, SubQuery } from './report-types.ts';
import { TEXT_EXPORTS } from './text-exports.ts';

/**
 * Reads report files: the meta-schema first (errors name the file, the JSON
 * pointer and the reason, as for entity files), then the names inside a file:
 * tables, aliases, columns, parameters and column keys must point at something
 * real, so a typo fails at start-up and never as a 500 on the first request.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
const checkMeta = ajv.compile(metaSchema);

/**
 * Tables a report may read besides entity tables. The stock balance keeps one
 * row per key (0 and '' for "none"), qty scaled by 10^4 and value in satang.
 */
export const STOCK_TABLES: Record<string, readonly string[]> = {
  // first_in_day: the business day of the key's first movement in ('' = none), kept by the ledger
  stock_balance: ['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date', 'container_id', 'qty', 'value', 'first_in_day'],
  // on hand per product and inventory at the end of a past business day (source.asOf names the date parameter):
  // the last month-end snapshot before it plus the ledger since (server/stock/stock-snapshots.ts)
  stock_as_of: ['product_id', 'inventory_id', 'qty'],
  // the balance summed per product and inventory, kept by the ledger: one row per pair, not per lot
  stock_balance_total: ['product_id', 'inventory_id', 'qty', 'value'],
  // the balance summed per lot and expiry date (locations and containers summed), kept the same way
  stock_lot_total: ['product_id', 'inventory_id', 'lot_no', 'expiry_date', 'qty', 'value'],
  // the ledger summed per business day (YYYY-MM-DD), inventory, direction and document ('' for none),
  // kept by the ledger (server/stock/movement-days.ts): what the movement dashboards read
  stock_movement_day: ['business_day', 'inventory_id', 'direction', 'ref_doc', 'movement_count', 'qty', 'value'],
  // booked now per product and inventory (site setting stock_balance_sub_booked_table_type), derived, not stored
  // (server/stock/stock-balance.ts): the same figures as GET /api/stock/balance
  stock_booked: ['product_id', 'inventory_id', 'qty'],
};
/**
 * The general ledger's day summaries, kept by the journal writer (server/ledger/journal-days.ts): posted lines
 * summed per company, account and `doc_date` (and per customer and supplier, 0 for none), debit and credit in
 * satang. What the trial balance and the statements read instead of every line. A caller sees the rows of the
 * companies whose entries they see: `company` names the column, `summarises` the entity whose company link is
 * scoped (the company entity's row scope is applied to it).
 */
export const LEDGER_TABLES: Record<string, { columns: readonly string[]; company: string; summarises: string }> = {
  journal_account_day: { columns: ['your_company_id', 'account_id', 'journal', 'doc_date', 'debit', 'credit', 'line_count'], company: 'your_company_id', summarises: 'journal_entry' },
  journal_party_day: { columns: ['your_company_id', 'account_id', 'customer_id', 'supplier_id', 'doc_date', 'debit', 'credit', 'line_count'], company: 'your_company_id', summarises: 'journal_entry' },
};
/** Tables whose rows a user limited to some inventories sees only for those (the column holding the inventory). */
export const STOCK_TABLE_INVENTORY: Record<string, string> = { stock_balance: 'inventory_id', stock_as_of: 'inventory_id', stock_balance_total: 'inventory_id', stock_lot_total: 'inventory_id', stock_movement_day: 'inventory_id', stock_booked: 'inventory_id' };

/** The columns of a table a report may name: an entity's stored columns, or a stock table's. */
export function tableColumns(name: string, entity: (n: string) => EntitySchema | undefined): Set<string> | undefined {
  if (STOCK_TABLES[name]) return new Set(STOCK_TABLES[name]);
  if (LEDGER_TABLES[name]) return new Set(LEDGER_TABLES[name].columns);
  const e = entity(name);
  if (!e) return undefined;
  const cols = new Set<string>(SYSTEM_FIELDS);
  for (const [n, f] of Object.entries(e.fields)) if (hasColumn(f)) cols.add(n);
  if (e.parent) cols.add(e.parent.field);
  if (e.kind === 'lines') cols.add('line_no');
  const soft = softDeleteColumn(e);
  if (soft) cols.add(soft);
  return cols;
}

const AGGREGATES = ['sum', 'min', 'max', 'count', 'countDistinct'];

/** Does the expression hold an aggregate (directly or through a column it names)? */
export function isAggregate(e: Expr, columns: ReadonlyMap<string, Expr> = new Map()): boolean {
  if (typeof e === 'string') return false;
  const [op, arg] = Object.entries(e)[0]!;
  if (AGGREGATES.includes(op)) return true;
  // a subquery's sum and a window's running sum are values of the row, not aggregates of its group
  if (op === 'scalar' || op === 'runningSum') return false;
  if (op === 'column') { const c = columns.get(arg as string); return c ? isAggregate(c, columns) : false; }
  if (op === 'case') {
    const c = e as { case: { when: Cond; then: Expr }[]; else?: Expr };
    return c.case.some((w) => isAggregate(w.then, columns)) || (c.else !== undefined && isAggregate(c.else, columns));
  }
  if (Array.isArray(arg)) return arg.some((a) => isAggregate(a as Expr, columns));
  return typeof arg === 'object' && arg !== null ? isAggregate(arg as Expr, columns) : false;
}

function metaProblems(file: string): SchemaProblem[] {
  const errors = checkMeta.errors ?? [];
  // an expression or condition that matches none of its forms: ajv explains every form it is not;
  // keep what went wrong inside it (a deeper pointer), else say once that the form is unknown
  const alternatives = new Set(errors.filter((e) => e.keyword === 'oneOf').map((e) => e.instancePath));
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  const push = (pointer: string, reason: string) => {
    const key = `${pointer}|${reason}`;
    if (!seen.has(key)) { seen.add(key); out.push({ file, pointer, reason }); }
  };
  for (const e of errors) {
    if (e.keyword === 'oneOf' || e.keyword === 'if' || alternatives.has(e.instancePath)) continue;
    push(e.instancePath, e.keyword === 'additionalProperties' ? `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`
      : e.keyword === 'enum' ? `${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : e.message ?? e.keyword);
  }
  for (const at of alternatives) {
    if (!out.some((p) => p.pointer.startsWith(`${at}/`))) push(at, 'is not a known expression or condition (docs/reports.md lists them)');
  }
  return out;
}

/** Checks names inside one report. */
function crossCheck(file: string, r: ReportDef, entity: (n: string) => EntitySchema | undefined): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const bad = (pointer: string, reason: string) => out.push({ file, pointer, reason });
  const expected = file.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
  if (r.name !== expected) bad('/name', `must match the file name "${expected}"`);
  const params = new Map(r.parameters.map((p) => [p.name, p]));
  if (params.size !== r.parameters.length) bad('/parameters', 'a parameter name is declared twice');
  r.parameters.forEach((p, i) => {
    if (p.type === 'link' && !p.entity) bad(`/parameters/${i}`, 'a link parameter names its entity');
    if (p.entity && !entity(p.entity)) bad(`/parameters/${i}/entity`, `unknown entity "${p.entity}"`);
    if (p.type === 'enum' && !p.options) bad(`/parameters/${i}`, 'an enum parameter lists its options');
    if (p.yearsOf && !tableColumns(p.yearsOf.entity, entity)?.has(p.yearsOf.column)) bad(`/parameters/${i}/yearsOf`, `"${p.yearsOf.entity}.${p.yearsOf.column}" is not a column`);
  });
  if (r.routeParam && !params.has(r.routeParam)) bad('/routeParam', `"${r.routeParam}" is not a parameter`);
  if (r.operator && params.get(r.operator)?.type !== 'link') bad('/operator', `"${r.operator}" is not a link parameter`);
  const aliases = new Map<string, Set<string>>();
  const addTable = (from: string, as: string, at: string, scope: Map<string, Set<string>>) => {
    const cols = tableColumns(from, entity);
    if (!cols) bad(`${at}/from`, `unknown table "${from}" (an entity name or ${[...Object.keys(STOCK_TABLES), ...Object.keys(LEDGER_TABLES)].join(', ')})`);
    if (scope.has(as)) bad(`${at}/as`, `alias "${as}" is used twice`);
    scope.set(as, cols ?? new Set());
  };
  const columns = new Map<string, Expr>();
  const expr = (e: Expr, at: string, scope: Map<string, Set<string>>, allowColumns: boolean): void => {
    if (typeof e === 'string') {
      const [a, c] = e.split('.') as [string, string];
      const cols = scope.get(a);
      if (!cols) bad(at, `"${a}" is not a table alias of this report`);
      else if (cols.size && !cols.has(c)) bad(at, `"${c}" is not a column of "${a}"`);
      return;
    }
    const [op, arg] = Object.entries(e)[0]!;
    if (op === 'param') { if (!params.has(arg as string)) bad(at, `"${arg}" is not a parameter`); return; }
    if (op === 'column') { if (!allowColumns || !columns.has(arg as string)) bad(at, `"${arg}" is not a column declared before this one`); return; }
    if (op === 'value' || op === 'today') return;
    if (op === 'scalar') {
      const q = arg as ScalarQuery;
      const inner = sub(q, `${at}/scalar`, scope, allowColumns);
      expr(q.value, `${at}/scalar/value`, inner, false);
      return;
    }
    if (op === 'runningSum') {
      expr(arg as Expr, `${at}/runningSum`, scope, allowColumns);
      (e as { orderBy: Expr[] }).orderBy.forEach((o, i) => expr(o, `${at}/orderBy/${i}`, scope, allowColumns));
      return;
    }
    if (op === 'case') {
      const c = e as { case: { when: Cond; then: Expr }[]; else?: Expr };
      c.case.forEach((w, i) => { cond(w.when, `${at}/case/${i}/when`, scope, allowColumns); expr(w.then, `${at}/case/${i}/then`, scope, allowColumns); });
      if (c.else !== undefined) expr(c.else, `${at}/else`, scope, allowColumns);
      return;
    }
    if (Array.isArray(arg)) arg.forEach((a, i) => expr(a as Expr, `${at}/${op}/${i}`, scope, allowColumns));
    else if (arg !== '*') expr(arg as Expr, `${at}/${op}`, scope, allowColumns);
  };
  const sub = (q: SubQuery, at: string, outer: Map<string, Set<string>>, allowColumns: boolean) => {
    const scope = new Map(outer);
    scope.delete(q.as);
    addTable(q.from, q.as, at, scope);
    joins(q.joins, `${at}/joins`, scope);
    q.where?.forEach((c, i) => cond(c, `${at}/where/${i}`, scope, allowColumns));
    return scope;
  };
  const cond = (c: Cond, at: string, scope: Map<string, Set<string>>, allowColumns: boolean): void => {
    const [op, arg] = Object.entries(c)[0]!;
    if (op === 'ifParam') {
      const x = c as { ifParam: string; then: Cond };
      if (!params.has(x.ifParam)) bad(`${at}/ifParam`, `"${x.ifParam}" is not a parameter`);
      cond(x.then, `${at}/then`, scope, allowColumns);
    } else if (op === 'and' || op === 'or') (arg as Cond[]).forEach((x, i) => cond(x, `${at}/${op}/${i}`, scope, allowColumns));
    else if (op === 'not') cond(arg as Cond, `${at}/not`, scope, allowColumns);
    else if (op === 'exists' || op === 'notExists') sub(arg as SubQuery, `${at}/${op}`, scope, allowColumns);
    else if (op === 'in' || op === 'notIn') expr((arg as [Expr, unknown])[0], `${at}/${op}/0`, scope, allowColumns);
    else if (Array.isArray(arg)) arg.forEach((x, i) => expr(x as Expr, `${at}/${op}/${i}`, scope, allowColumns));
    else expr(arg as Expr, `${at}/${op}`, scope, allowColumns);
  };
  const joins = (list: Join[] | undefined, at: string, scope: Map<string, Set<string>>) => list?.forEach((j, i) => {
    addTable(j.from, j.as, `${at}/${i}`, scope);
    cond(j.on, `${at}/${i}/on`, scope, false);
  });
  addTable(r.source.from, r.source.as, '/source', aliases);
  if (r.source.from === 'stock_as_of' && params.get(r.source.asOf ?? '')?.type !== 'date') bad('/source/asOf', 'stock_as_of needs asOf: the name of a date parameter');
  if (r.source.asOf && r.source.from !== 'stock_as_of') bad('/source/asOf', 'only the stock_as_of table takes asOf');
  r.source.joins?.forEach((j, i) => { if (j.from === 'stock_as_of') bad(`/source/joins/${i}/from`, 'stock_as_of can only be the source'); });
  joins(r.source.joins, '/source/joins', aliases);
  r.where?.forEach((c, i) => cond(c, `/where/${i}`, aliases, false));
  r.groupBy?.forEach((g, i) => expr(g, `/groupBy/${i}`, aliases, false));
  r.columns.forEach((c, i) => {
    if (columns.has(c.key)) bad(`/columns/${i}/key`, `"${c.key}" is declared twice`);
    expr(c.expr, `/columns/${i}/expr`, aliases, true);
    columns.set(c.key, c.expr);
    for (const m of c.link?.matchAll(/\{(\w+)\}/g) ?? []) if (!r.columns.some((x) => x.key === m[1])) bad(`/columns/${i}/link`, `"${m[1]}" is not a column`);
    for (const m of c.link?.matchAll(/\{\$(\w+)\}/g) ?? []) if (!params.has(m[1]!)) bad(`/columns/${i}/link`, `"$${m[1]}" is not a parameter`);
  });
  r.having?.forEach((c, i) => cond(c, `/having/${i}`, aliases, true));
  r.union?.forEach((u, n) => {
    const at = `/union/${n}`;
    const scope = new Map<string, Set<string>>();
    addTable(u.source.from, u.source.as, `${at}/source`, scope);
    joins(u.source.joins, `${at}/source/joins`, scope);
    u.where?.forEach((c, i) => cond(c, `${at}/where/${i}`, scope, false));
    u.groupBy?.forEach((g, i) => expr(g, `${at}/groupBy/${i}`, scope, false));
    u.having?.forEach((c, i) => cond(c, `${at}/having/${i}`, scope, false));
    for (const k of Object.keys(u.values)) if (!columns.has(k)) bad(`${at}/values/${k}`, `"${k}" is not a column of the report`);
    for (const c of r.columns) {
      if (u.values[c.key] === undefined) bad(`${at}/values`, `gives no value for the column "${c.key}"`);
      else expr(u.values[c.key]!, `${at}/values/${c.key}`, scope, false);
    }
  });
  const key = (k: string, at: string) => { if (!columns.has(k)) bad(at, `"${k}" is not a column`); };
  if (r.countFrom) {
    const f = r.countFrom;
    const scope = new Map<string, Set<string>>();
    addTable(f.source.from, f.source.as, '/countFrom/source', scope);
    joins(f.source.joins, '/countFrom/source/joins', scope);
    f.where?.forEach((c, i) => cond(c, `/countFrom/where/${i}`, scope, false));
    expr(f.count, '/countFrom/count', scope, false);
    for (const [k, e] of Object.entries(f.totals)) {
      if (!r.totals?.includes(k)) bad(`/countFrom/totals/${k}`, `"${k}" is not one of the report's totals`);
      expr(e, `/countFrom/totals/${k}`, scope, false);
    }
    r.totals?.forEach((k) => { if (f.totals[k] === undefined) bad('/countFrom/totals', `gives no value for the total "${k}"`); });
    if (isAggregate(f.count) || Object.values(f.totals).some((e) => isAggregate(e))) bad('/countFrom', 'count and totals are values of one summary row (they are summed)');
  }
  r.sort?.forEach((s, i) => key(s.key, `/sort/${i}/key`));
  r.totals?.forEach((k, i) => {
    key(k, `/totals/${i}`);
    const t = r.columns.find((c) => c.key === k)?.type;
    if (t && !['money', 'qty', 'integer'].includes(t)) bad(`/totals/${i}`, `"${k}" is a ${t} column; totals sum money, qty or integer columns`);
  });
  r.textExports?.forEach((x, i) => {
    const known = TEXT_EXPORTS[x.format];
    if (!known) bad(`/textExports/${i}/format`, `unknown text export "${x.format}" (known: ${Object.keys(TEXT_EXPORTS).join(', ')})`);
    for (const [name, values] of Object.entries(known?.needs ?? {})) {
      const p = params.get(name);
      if (!p || !p.required || (p.type === 'enum' && p.options?.some((o) => !values.includes(o.value)))) {
        bad(`/textExports/${i}/format`, `"${x.format}" needs a required parameter "${name}" of ${values.join(', ')}`);
      }
    }
  });
  if (r.chart) { key(r.chart.label, '/chart/label'); r.chart.series.forEach((s, i) => key(s, `/chart/series/${i}`)); }
  return out;
}

/** Checks every report file; answers the reports or throws SchemaLoadError naming every problem. */
export function loadReportSet(sources: SchemaSource[], entity: (n: string) => EntitySchema | undefined): ReportDef[] {
  const problems: SchemaProblem[] = [];
  const out: ReportDef[] = [];
  const names = new Set<string>();
  for (const s of sources) {
    let value: unknown;
    try { value = JSON.parse(s.text); } catch (err) { problems.push({ file: s.file, pointer: '', reason: `not valid JSON: ${(err as Error).message}` }); continue; }
    if (!checkMeta(value)) { problems.push(...metaProblems(s.file)); continue; }
    const r = value as unknown as ReportDef;
    if (names.has(r.name)) problems.push({ file: s.file, pointer: '/name', reason: `report "${r.name}" is defined twice` });
    names.add(r.name);
    const found = crossCheck(s.file, r, entity);
    problems.push(...found);
    if (!found.length) out.push(withEnumOptions(r, entity));
  }
  if (problems.length) throw new SchemaLoadError(problems);
  return out;
}

/**
 * A string column that is one enum field of the report's source or a join (`"s.status"`) takes that field's options
 * unless the file gives its own: the screen and the PDF then show "ปิดกะแล้ว", not "closed" (the API, CSV and Excel
 * keep the code). Read from the entity schemas, so a new enum value needs no change here.
 */
function withEnumOptions(r: ReportDef, entity: (n: string) => EntitySchema | undefined): ReportDef {
  const alias = new Map<string, string>([[r.source.as, r.source.from], ...(r.source.joins ?? []).map((j) => [j.as, j.from] as [string, string])]);
  const columns = r.columns.map((c) => {
    if (c.options || c.type !== 'string' || typeof c.expr !== 'string') return c;
    const [a, f] = c.expr.split('.');
    const field = a && f ? entity(alias.get(a) ?? '')?.fields[f] : undefined;
    return field?.type === 'enum' && field.options?.length ? { ...c, options: field.options.map((o) => ({ value: o.value, label: o.label })) } : c;
  });
  return { ...r, columns };
}
