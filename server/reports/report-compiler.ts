import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Cond, Expr, Join, ParamPart, ReportDef, ReportSource, ScalarQuery, SubQuery } from '../../engine/reports/report-types.ts';
import { isAggregate, LEDGER_TABLES, STOCK_TABLE_INVENTORY } from '../../engine/reports/report-loader.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { FilterNode } from '../../engine/filter/filter-types.ts';
import { compileFilter, type CompileContext } from '../crud/filter-compiler.ts';
import { businessDayEnd, businessDayStart, businessTodayNow } from '../stock/business-days.ts';
import type { ParamValues } from './report-params.ts';
import { businessDateSql } from '../stock/movement-days.ts';
import { daysBetween, integerDivision, type DialectName } from '../db/dialect-sql.ts';

/**
 * Compiles a report file into ONE Kysely query, the same on SQLite and
 * PostgreSQL. Expressions are built from the file's JSON vocabulary only:
 * table and column names are checked by the loader and quoted as identifiers,
 * values are bound parameters (numbers from checked parameters are inlined as
 * literals, so PostgreSQL knows their type inside CASE and arithmetic).
 * Money (satang) and quantities (x 10^4) stay integers in SQL; sums are exact.
 */
export interface ReportScope {
  /** The caller's row restriction on an entity (null = none): applied to the source and every join. */
  rowFilter(entity: EntitySchema): FilterNode | null;
  /** Inventories the caller may see on stock tables (null = all). */
  inventories: number[] | null;
}

export interface CompileEnv {
  k: Kysely<any>;
  dialect: DialectName;
  entity(name: string): EntitySchema | undefined;
  compileContext: CompileContext;
  params: ParamValues;
  scope: ReportScope;
  /** For a stock_as_of source: the newest month-end snapshot on or before the date (null: none, the whole ledger is summed). */
  snapshotDate?: string | null;
  /** For a stock_as_of source: the stock ledger's table (the entity that holds the stock movements). */
  stockLedger?: string;
  /** The stock_booked table as a subquery under an alias (the site's booking mode read by the runner). */
  booked?: (alias: string) => unknown;
  /**
   * For the count and totals of a page: a running sum (a window over every row in order) is left out as null.
   * Only when no total reads it (usesWindow); it never changes which rows there are.
   */
  withoutWindows?: boolean;
}

/** Does the expression hold a running sum (directly or through a column it names)? */
export function usesWindow(e: Expr, columns: ReadonlyMap<string, Expr>): boolean {
  if (typeof e === 'string') return false;
  const [op, arg] = Object.entries(e)[0]!;
  if (op === 'runningSum') return true;
  if (op === 'column') { const c = columns.get(arg as string); return c ? usesWindow(c, columns) : false; }
  if (op === 'case') {
    const c = e as { case: { when: Cond; then: Expr }[]; else?: Expr };
    return c.case.some((w) => usesWindow(w.then, columns)) || (c.else !== undefined && usesWindow(c.else, columns));
  }
  if (op === 'scalar') return false;
  if (Array.isArray(arg)) return arg.some((a) => typeof a === 'object' && a !== null && usesWindow(a as Expr, columns));
  return typeof arg === 'object' && arg !== null ? usesWindow(arg as Expr, columns) : false;
}

/** Every running sum an expression holds (directly or through a column it names). */
function runningSums(e: Expr, columns: ReadonlyMap<string, Expr>, out: { runningSum: Expr; orderBy: Expr[] }[] = []): { runningSum: Expr; orderBy: Expr[] }[] {
  if (typeof e === 'string') return out;
  const [op, arg] = Object.entries(e)[0]!;
  if (op === 'runningSum') { out.push(e as { runningSum: Expr; orderBy: Expr[] }); return out; }
  if (op === 'scalar') return out;
  if (op === 'column') { const c = columns.get(arg as string); return c ? runningSums(c, columns, out) : out; }
  if (op === 'case') {
    const c = e as { case: { when: Cond; then: Expr }[]; else?: Expr };
    for (const w of c.case) runningSums(w.then, columns, out);
    if (c.else !== undefined) runningSums(c.else, columns, out);
    return out;
  }
  for (const a of Array.isArray(arg) ? arg : [arg]) if (typeof a === 'object' && a !== null) runningSums(a as Expr, columns, out);
  return out;
}

/**
 * A page may compute the main rows' running sums over its first rows alone (ReportCompiler.parts with `windowPrefix`)
 * when the first n rows in the page's order are the first n in the running sums' order, and that order is total:
 * every running sum of the columns has the same `orderBy`, ascending, ending with the source's id; the page's order
 * starts with columns that are exactly those expressions, ascending; the main rows are not grouped. A running sum of
 * the first n rows in its own order is then, row for row, the running sum of every row (issue 50 §4: the general
 * ledger of an account of a quarter of a million lines computed every line's balance to show 100).
 */
export function windowPrefixApplies(def: ReportDef, order: { key: string; desc: boolean }[]): boolean {
  const columns = new Map(def.columns.map((c) => [c.key, c.expr]));
  const sums = def.columns.flatMap((c) => runningSums(c.expr, columns));
  if (!sums.length || def.groupBy || def.columns.some((c) => isAggregate(c.expr, columns))) return false;
  const by = JSON.stringify(sums[0]!.orderBy);
  if (sums.some((r) => JSON.stringify(r.orderBy) !== by)) return false;
  const orderBy = sums[0]!.orderBy;
  if (orderBy.at(-1) !== `${def.source.as}.id` || order.length < orderBy.length) return false;
  return orderBy.every((o, i) => !order[i]!.desc && JSON.stringify(columns.get(order[i]!.key)) === JSON.stringify(o));
}

type Sql = RawBuilder<unknown>;
const MONTH_DAYS = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

function addMonths(date: string, n: number): string {
  const y = Number(date.slice(0, 4)); const m = Number(date.slice(5, 7)) - 1 + n; const d = Number(date.slice(8, 10));
  const yy = y + Math.floor(m / 12); const mm = ((m % 12) + 12) % 12 + 1;
  return `${yy}-${String(mm).padStart(2, '0')}-${String(Math.min(d, MONTH_DAYS(yy, mm))).padStart(2, '0')}`;
}

/** A parameter's value, or one derived from it (the first and last day of a month, the instants a business day starts and ends). */
export function paramPart(value: string | number | boolean, part: ParamPart = 'value'): string | number | boolean {
  if (part === 'value') return value;
  const s = String(value);
  const first = /^\d{4}$/.test(s) ? `${s}-01-01` : s.length === 7 ? `${s}-01` : s;
  const last = /^\d{4}$/.test(s) ? `${s}-12-31` : s.length === 7 ? `${s}-${String(MONTH_DAYS(Number(s.slice(0, 4)), Number(s.slice(5, 7)))).padStart(2, '0')}` : s;
  switch (part) {
    case 'first_day': return first;
    case 'last_day': return last;
    case 'day_start': case 'month_start': return businessDayStart(first);
    case 'day_end': case 'month_end': return businessDayEnd(last);
    case 'months_from_today': return addMonths(businessTodayNow(), Number(value));
    case 'days_before_today': return new Date(Date.parse(`${businessTodayNow()}T00:00:00Z`) - Number(value) * 86_400_000).toISOString().slice(0, 10);
  }
}

const lit = (v: string | number | boolean | null): Sql => {
  if (v === null) return sql`null`;
  if (typeof v === 'boolean') return sql.lit(v ? 1 : 0);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return sql.lit(v);
  return sql`${v}`;
};

/** Thrown inside a condition that names a parameter without a value: the condition is left out. */
class MissingParam extends Error {}

export class ReportCompiler {
  private readonly columnExprs = new Map<string, Expr>();

  constructor(private readonly def: ReportDef, private readonly env: CompileEnv) {
    for (const c of def.columns) this.columnExprs.set(c.key, c.expr);
  }

  expr(e: Expr): Sql {
    if (typeof e === 'string') return sql.ref(e);
    const [op, arg] = Object.entries(e)[0]! as [string, any];
    const list = (xs: Expr[], sep: Sql) => sql.join(xs.map((x) => this.expr(x)), sep);
    switch (op) {
      case 'value': return lit(arg);
      case 'param': {
        const v = this.env.params[arg];
        if (v === null || v === undefined) throw new MissingParam(arg);
        return lit(paramPart(v, (e as { part?: ParamPart }).part));
      }
      case 'today': return lit(arg === 'date' ? businessTodayNow() : arg === 'day_start' ? businessDayStart(businessTodayNow()) : businessDayEnd(businessTodayNow()));
      case 'column': return this.expr(this.columnExprs.get(arg)!);
      case 'sum': return sql`sum(${this.expr(arg)})`;
      case 'min': return sql`min(${this.expr(arg)})`;
      case 'max': return sql`max(${this.expr(arg)})`;
      case 'count': return arg === '*' ? sql`count(*)` : sql`count(${this.expr(arg)})`;
      case 'countDistinct': return sql`count(distinct ${this.expr(arg)})`;
      case 'add': return sql`(${list(arg, sql` + `)})`;
      case 'sub': return sql`(${list(arg, sql` - `)})`;
      case 'mul': return sql`(${list(arg, sql` * `)})`;
      case 'neg': return sql`(-${this.expr(arg)})`;
      case 'divRound': {
        // half away from zero, in integers: (2|a| + b) div 2b, with a's sign (b is positive)
        const [a, b] = [this.expr(arg[0]), this.expr(arg[1])];
        const div = (x: Sql, y: Sql) => integerDivision(this.env.dialect, x, y);
        return sql`(case when ${b} = 0 then null when ${a} >= 0 then ${div(sql`2 * ${a} + ${b}`, sql`2 * ${b}`)} else -${div(sql`-2 * ${a} + ${b}`, sql`2 * ${b}`)} end)`;
      }
      case 'coalesce': return sql`coalesce(${list(arg, sql`, `)})`;
      case 'concat': return sql`(${sql.join((arg as Expr[]).map((x) => sql`coalesce(cast(${this.expr(x)} as text), '')`), sql` || `)})`;
      case 'case': {
        const c = e as { case: { when: Cond; then: Expr }[]; else?: Expr };
        const whens = c.case.map((w) => sql`when ${this.cond(w.when) ?? sql`1 = 1`} then ${this.expr(w.then)}`);
        return sql`(case ${sql.join(whens, sql` `)}${c.else !== undefined ? sql` else ${this.expr(c.else)}` : sql``} end)`;
      }
      // Kysely puts the embedded select in parentheses
      case 'scalar': return sql`${this.subquery(arg as ScalarQuery, (arg as ScalarQuery).value)}`;
      case 'runningSum': {
        if (this.env.withoutWindows) return sql`null`;
        // rows, not range: lines of one date and entry are summed one at a time, in the order given
        const order = sql.join((e as { orderBy: Expr[] }).orderBy.map((o) => this.expr(o)), sql`, `);
        return sql`sum(${this.expr(arg)}) over (order by ${order} rows between unbounded preceding and current row)`;
      }
      case 'businessDate': return businessDateSql(this.env.dialect, this.expr(arg));
      case 'year': return sql`substr(cast(${this.expr(arg)} as text), 1, 4)`;
      case 'yearMonth': return sql`substr(cast(${this.expr(arg)} as text), 1, 7)`;
      case 'daysBetween': {
        const d = (x: Expr) => sql`nullif(cast(${this.expr(x)} as text), '')`;
        return daysBetween(this.env.dialect, d(arg[0]), d(arg[1]));
      }
    }
    throw new Error(`unknown report expression ${op}`);
  }

  /** A condition; null when it names a parameter without a value (it is then left out). */
  cond(c: Cond): Sql | null {
    const [op, arg] = Object.entries(c)[0]! as [string, any];
    try {
      switch (op) {
        case 'eq': case 'ne': case 'lt': case 'le': case 'gt': case 'ge': {
          const sym = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' }[op]!;
          return sql`(${this.expr(arg[0])} ${sql.raw(sym)} ${this.expr(arg[1])})`;
        }
        case 'in': case 'notIn': return sql`(${this.expr(arg[0])} ${sql.raw(op === 'in' ? 'in' : 'not in')} (${sql.join((arg[1] as (string | number)[]).map(lit))}))`;
        case 'isNull': return sql`(${this.expr(arg)} is null)`;
        case 'notNull': return sql`(${this.expr(arg)} is not null)`;
        case 'and': case 'or': {
          const parts = (arg as Cond[]).map((x) => this.cond(x)).filter((x): x is Sql => x !== null);
          if (!parts.length) return null;
          return sql`(${sql.join(parts, sql.raw(op === 'and' ? ' and ' : ' or '))})`;
        }
        case 'not': { const inner = this.cond(arg); return inner ? sql`(not ${inner})` : null; }
        case 'ifParam': {
          const x = c as { ifParam: string; then: Cond };
          const v = this.env.params[x.ifParam];
          return v === null || v === undefined || v === false ? null : this.cond(x.then);
        }
        // Kysely puts an embedded select in parentheses already; SQLite refuses `exists ((select …))`
        case 'exists': case 'notExists': return sql`(${sql.raw(op === 'exists' ? 'exists' : 'not exists')} ${this.subquery(arg as SubQuery)})`;
      }
    } catch (err) {
      if (err instanceof MissingParam) return null;
      throw err;
    }
    throw new Error(`unknown report condition ${op}`);
  }

  /**
   * exists/notExists (select 1), or a scalar's value. A scalar reads figures, so it takes the caller's row scope
   * on its table and joins as the report's source does: a user limited to one company never sums another's.
   */
  private subquery(q: SubQuery, value?: Expr): SelectQueryBuilder<any, any, any> {
    let b = this.env.k.selectFrom(`${q.from} as ${q.as}`) as SelectQueryBuilder<any, any, any>;
    b = this.joins(b, q.joins, value !== undefined);
    b = this.softDeleted(b, q.from, q.as);
    const scope = value !== undefined ? this.scoped(q.from, q.as) : null;
    if (scope) b = b.where(scope);
    for (const w of q.where ?? []) { const c = this.cond(w); if (c) b = b.where(c as Expression<SqlBool>); }
    return b.select((value !== undefined ? this.expr(value) : sql`1`).as('one'));
  }

  private softDeleted(b: SelectQueryBuilder<any, any, any>, table: string, alias: string) {
    const e = this.env.entity(table);
    const col = e ? softDeleteColumn(e) : null;
    return col ? b.where(sql.ref(`${alias}.${col}`), '=', 0) : b;
  }

  /** The caller's rows only: an entity's row filter, a stock table's inventories, a ledger summary's companies. */
  private scoped(table: string, alias: string): ((eb: any) => Expression<SqlBool>) | null {
    const e = this.env.entity(table);
    if (e) {
      const filter = this.env.scope.rowFilter(e);
      return filter ? (eb) => compileFilter(eb, filter, e, alias, this.env.compileContext) : null;
    }
    const ledger = LEDGER_TABLES[table];
    if (ledger) {
      // the companies the caller sees (the company entity's own row scope), as the entries summed are scoped by their company
      const link = this.env.entity(ledger.summarises)?.fields[ledger.company]?.entity;
      const company = link ? this.env.entity(link) : undefined;
      if (!company) return () => sql<SqlBool>`1 = 0`;
      const filter = this.env.scope.rowFilter(company);
      if (!filter) return null;
      const c = `${alias}_company`;
      return () => sql<SqlBool>`${sql.ref(`${alias}.${ledger.company}`)} in (${this.env.k.selectFrom(`${company.name} as ${c}`).select(`${c}.id`)
        .where((ieb) => compileFilter(ieb as never, filter, company, c, this.env.compileContext))})`;
    }
    const col = STOCK_TABLE_INVENTORY[table];
    const allowed = this.env.scope.inventories;
    if (!col || !allowed) return null;
    return () => (allowed.length ? sql<SqlBool>`${sql.ref(`${alias}.${col}`)} in (${sql.join(allowed.map((n) => sql.lit(n)))})` : sql<SqlBool>`1 = 0`);
  }

  private joins(b: SelectQueryBuilder<any, any, any>, joins: Join[] | undefined, scoped: boolean) {
    for (const j of joins ?? []) {
      const on = this.cond(j.on) ?? sql`1 = 1`;
      const scope = scoped ? this.scoped(j.from, j.as) : null;
      const e = this.env.entity(j.from);
      const soft = e ? softDeleteColumn(e) : null;
      const joinOn = (jb: any) => {
        let x = jb.on(on);
        if (soft) x = x.on(sql.ref(`${j.as}.${soft}`), '=', 0);
        if (scope) x = x.on(scope);
        return x;
      };
      const t = this.table(j.from, j.as) as never;
      b = j.type === 'left' ? b.leftJoin(t, joinOn) : b.innerJoin(t, joinOn);
    }
    return b;
  }

  /**
   * stock_as_of: on hand per product and inventory at the end of business day asOf, as one
   * subquery: the month-end snapshot's totals plus the ledger's movements after it up to that
   * instant (the whole ledger when there is no snapshot yet). Exact: a snapshot is kept in step
   * with every later backdated movement.
   */
  private stockAsOf(alias: string, asOfParam: string) {
    const k = this.env.k;
    const asOf = this.env.params[asOfParam];
    if (typeof asOf !== 'string') throw new MissingParam(asOfParam);
    const snap = this.env.snapshotDate ?? null;
    if (!this.env.stockLedger) throw new Error('a stock_as_of report needs the stock ledger: no schema declares "holds": "stockMovements"');
    let moved = k.selectFrom(this.env.stockLedger).select(['product_id', 'inventory_id', sql`case when direction = 'in' then qty else -qty end`.as('qty')])
      .where('movement_date', '<', businessDayEnd(asOf)) as SelectQueryBuilder<any, any, any>;
    if (snap) moved = moved.where('movement_date', '>=', businessDayEnd(snap));
    const all = snap ? k.selectFrom('stock_snapshot_total').select(['product_id', 'inventory_id', 'qty']).where('as_of_date', '=', snap).unionAll(moved) : moved;
    return k.selectFrom(all.as('u')).select(['u.product_id as product_id', 'u.inventory_id as inventory_id', sql`sum(u.qty)`.as('qty')]).groupBy(['u.product_id', 'u.inventory_id']).as(alias);
  }

  /**
   * A table as the FROM or JOIN names it: an entity's or stock table's name (stock_balance_total is
   * a real table, kept by the ledger: server/stock/balance-totals.ts), or the derived stock_as_of.
   */
  private table(from: string, as: string, source?: ReportSource) {
    if (from === 'stock_as_of') return this.stockAsOf(as, (source ?? this.def.source).asOf!);
    if (from === 'stock_booked') return this.env.booked!(as);
    return `${from} as ${as}`;
  }

  /** The report's rows, one per group, each column under its key (no order, no paging); a `union` appends its parts. */
  rows(): SelectQueryBuilder<any, any, any> {
    const [first, ...rest] = this.parts();
    return rest.reduce((b, p) => b.unionAll(p), first!);
  }

  /**
   * The main rows, then each `union` part, apart: a page takes the first rows of each in its order, not every row sorted.
   * `windowPrefix` n: the main rows are only the first n in their running sums' order, whose running sums are then
   * those of every row (when windowPrefixApplies to the page's order): the rows are picked by an index in that order,
   * which stops after n, and the window runs over n rows instead of every row.
   */
  parts(opts: { windowPrefix?: number } = {}): SelectQueryBuilder<any, any, any>[] {
    const d = this.def;
    return [this.part(d.source, d.where, d.groupBy, d.having, (key) => this.columnExprs.get(key)!, opts.windowPrefix),
      ...(d.union ?? []).map((u) => this.part(u.source, u.where, u.groupBy, u.having, (key) => u.values[key]!))];
  }

  /**
   * countFrom: the main rows' count (`__count`) and each total (`__t<i>`, in the order given) summed over the summary's
   * rows, one row; the caller's scope on the summary and its joins as on any source.
   */
  countFrom(totals: string[]): SelectQueryBuilder<any, any, any> {
    const f = this.def.countFrom!;
    let b = this.env.k.selectFrom(this.table(f.source.from, f.source.as, f.source) as never) as SelectQueryBuilder<any, any, any>;
    b = this.joins(b, f.source.joins, true);
    b = this.softDeleted(b, f.source.from, f.source.as);
    const scope = this.scoped(f.source.from, f.source.as);
    if (scope) b = b.where(scope);
    for (const w of f.where ?? []) { const c = this.cond(w); if (c) b = b.where(c as Expression<SqlBool>); }
    return b.select(sql`coalesce(sum(${this.expr(f.count)}), 0)`.as('__count'))
      .select(totals.map((t, i) => sql`coalesce(sum(${this.expr(f.totals[t]!)}), 0)`.as(`__t${i}`)));
  }

  /** The rows of a source, its joins, the caller's scope and the conditions: no columns yet. */
  private filtered(source: ReportSource, where: Cond[] | undefined): SelectQueryBuilder<any, any, any> {
    let b = this.env.k.selectFrom(this.table(source.from, source.as, source) as never) as SelectQueryBuilder<any, any, any>;
    b = this.joins(b, source.joins, true);
    b = this.softDeleted(b, source.from, source.as);
    const scope = this.scoped(source.from, source.as);
    if (scope) b = b.where(scope);
    for (const w of where ?? []) { const c = this.cond(w); if (c) b = b.where(c as Expression<SqlBool>); }
    return b;
  }

  /** One select over a source: the columns in the report's order (a union matches them by position). */
  private part(source: ReportSource, where: Cond[] | undefined, groupBy: Expr[] | undefined, having: Cond[] | undefined, exprOf: (key: string) => Expr, windowPrefix?: number): SelectQueryBuilder<any, any, any> {
    const d = this.def;
    let b = this.filtered(source, where);
    if (windowPrefix !== undefined) {
      // the ids of the first n rows in the running sums' order (the same rows, joins and scope): an index in that order stops after n
      const orderBy = runningSums({ add: d.columns.map((c) => c.expr) }, this.columnExprs)[0]!.orderBy;
      let first = this.filtered(source, where).select(sql.ref(`${source.as}.id`).as('id'));
      for (const o of orderBy) first = first.orderBy(this.expr(o), 'asc');
      // Kysely puts the embedded select in parentheses (`in ((select …))` would be one value)
      b = b.where(sql<SqlBool>`${sql.ref(`${source.as}.id`)} in ${first.limit(windowPrefix)}`);
    }
    const exprs = d.columns.map((c) => ({ key: c.key, expr: exprOf(c.key) }));
    b = b.select(exprs.map((c) => {
      try { return this.expr(c.expr).as(c.key); } catch (err) { if (err instanceof MissingParam) return sql`null`.as(c.key); throw err; }
    }));
    const aggregated = exprs.some((c) => isAggregate(c.expr, this.columnExprs));
    const groups = groupBy ?? (aggregated ? exprs.filter((c) => !isAggregate(c.expr, this.columnExprs)).map((c) => c.expr) : []);
    if (groups.length) b = b.groupBy(groups.map((g) => this.expr(g)));
    for (const h of having ?? []) { const c = this.cond(h); if (c) b = b.having(c as Expression<SqlBool>); }
    return b;
  }
}
