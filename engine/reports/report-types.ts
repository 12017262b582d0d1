/**
 * A report file (schemas/reports/<name>.json), as the loader hands it on.
 * The server compiles it into one SQL query (server/reports/report-compiler.ts);
 * docs/reports.md describes every key. No SQL text is ever written in a file:
 * expressions and conditions are the small JSON vocabulary below.
 */
export interface Label { th: string; en: string }

export type ParamType = 'date' | 'month' | 'year' | 'integer' | 'boolean' | 'link' | 'enum' | 'text';
export type ParamDefault = 'today' | 'this_month' | 'this_year' | 'start_of_month' | 'start_of_year' | string | number | boolean;

export interface ReportParam {
  name: string;
  type: ParamType;
  label: Label;
  /** link: the entity whose record id it takes (the screen offers its records). */
  entity?: string;
  /** enum: the values accepted. */
  options?: { value: string; label: Label }[];
  required?: boolean;
  default?: ParamDefault;
  min?: number;
  max?: number;
  /** year: where the years with data come from (GET /api/report/{name}/year). */
  yearsOf?: { entity: string; column: string };
}

/** Values derived from a parameter (or today) for use in expressions. */
export type ParamPart =
  | 'value' | 'day_start' | 'day_end' | 'first_day' | 'last_day' | 'month_start' | 'month_end'
  | 'months_from_today' | 'days_before_today';

/** An expression: "alias.column", or one JSON operator. */
export type Expr =
  | string
  | { value: string | number | boolean | null }
  | { param: string; part?: ParamPart }
  | { today: 'date' | 'day_start' | 'day_end' }
  | { column: string }
  | { sum: Expr } | { min: Expr } | { max: Expr } | { count: Expr | '*' } | { countDistinct: Expr }
  | { add: Expr[] } | { sub: Expr[] } | { mul: Expr[] } | { divRound: [Expr, Expr] } | { neg: Expr }
  | { coalesce: Expr[] }
  | { case: { when: Cond; then: Expr }[]; else?: Expr }
  | { businessDate: Expr } | { year: Expr } | { yearMonth: Expr } | { daysBetween: [Expr, Expr] }
  | { concat: Expr[] }
  /** One value read by a subquery (a sum of a ledger's lines before a date; a month's VAT of a company): correlated by its where. */
  | { scalar: ScalarQuery }
  /** A running sum over the row set in this order (a ledger's balance after each line): a window, never a grouping. */
  | { runningSum: Expr; orderBy: Expr[] };

export interface SubQuery { from: string; as: string; joins?: Join[]; where?: Cond[] }
export interface ScalarQuery extends SubQuery { value: Expr }

export type Cond =
  | { eq: [Expr, Expr] } | { ne: [Expr, Expr] } | { lt: [Expr, Expr] } | { le: [Expr, Expr] } | { gt: [Expr, Expr] } | { ge: [Expr, Expr] }
  | { in: [Expr, (string | number)[]] } | { notIn: [Expr, (string | number)[]] }
  | { isNull: Expr } | { notNull: Expr }
  | { and: Cond[] } | { or: Cond[] } | { not: Cond }
  | { exists: SubQuery } | { notExists: SubQuery }
  /** Holds only when the parameter has a value (for optional parameters used in several places). */
  | { ifParam: string; then: Cond };

export interface Join {
  /** An entity name, or a stock table (stock_balance). */
  from: string;
  as: string;
  on: Cond;
  type?: 'inner' | 'left';
}

export interface ReportSource {
  from: string;
  as: string;
  joins?: Join[];
  /** With from "stock_as_of": the date parameter whose end of business day the stock is taken at. */
  asOf?: string;
}

/** One more row set of a report: tax invoices, then credit notes, then debit notes, in one answer. */
export interface ReportUnionPart {
  source: ReportSource;
  where?: Cond[];
  groupBy?: Expr[];
  having?: Cond[];
  /** An expression for every column key of the report (no {column} references). */
  values: Record<string, Expr>;
}

/**
 * Where a page's count and totals of the report's main rows (source and where; not the `union` parts, which are
 * counted as they are) come from instead of those rows: a summary kept with them (a ledger's lines per day).
 * Each summary row stands for `count` rows of the report and adds `totals[key]` to each total; both summed. The
 * file must filter it as the main rows are (same parameters); the caller's scope applies to it as to any table.
 */
export interface CountFrom {
  source: ReportSource;
  where?: Cond[];
  count: Expr;
  totals: Record<string, Expr>;
}

export type ColumnType = 'string' | 'date' | 'integer' | 'money' | 'qty' | 'boolean';

export interface ReportColumn {
  key: string;
  label: Label;
  type: ColumnType;
  expr: Expr;
  /** Not shown on screen or in exports (ids a link needs). */
  hidden?: boolean;
  /**
   * The screen links the cell to this path; {key} is replaced by the row's value of that column, {$name} by the
   * report's parameter as it ran (a drill-down to another report for the same dates: `/general_ledger?account={account_code}&date_from={$date_from}`).
   */
  link?: string;
  /** The screen shows the label of a code (pnd53 -> ภ.ง.ด.53); exports and the API keep the code. */
  options?: { value: string; label: Label }[];
}

export interface ReportChart {
  type: 'bar' | 'line' | 'pie' | 'doughnut';
  /** The column whose values label the points. */
  label: string;
  /** The columns drawn, one dataset each. */
  series: string[];
  /** How many rows are drawn (first rows in the report's order); 50 unless told. */
  limit?: number;
}

export interface ReportDef {
  name: string;
  label: Label;
  description?: Label;
  /** Role flags (view, print, export) are read for this key; the report's name unless told. */
  menuKey?: string;
  /** Where the menu shows it: reports, dashboards, exception_reports, tax_reports, pos_reports… */
  menuGroup: string;
  /** The screen also answers /{name}/{id}, the id filling this parameter. */
  routeParam?: string;
  /**
   * A link parameter to a company: the printed report is headed by that company as the operator (name, tax id,
   * head office or branch), as the Revenue Department asks of a tax report. Without a choice, the only company.
   */
  operator?: string;
  parameters: ReportParam[];
  source: ReportSource;
  where?: Cond[];
  /** Grouping; without it a report with aggregates groups by every column without one. */
  groupBy?: Expr[];
  having?: Cond[];
  /** More row sets appended (UNION ALL), each from its own source, with an expression for every column key. */
  union?: ReportUnionPart[];
  /** The main rows' count and totals read from a summary (the general ledger of a busy account over two years). */
  countFrom?: CountFrom;
  columns: ReportColumn[];
  sort?: { key: string; desc?: boolean }[];
  /** Columns summed over every row of the answer. */
  totals?: string[];
  chart?: ReportChart;
  /** Fixed-layout text files offered at /api/report/{name}/text/{format} (engine/reports/text-exports.ts). */
  textExports?: { format: string; label: Label }[];
}

/** What GET /api/report lists for each report. */
export interface ReportSummary {
  name: string;
  label: Label;
  parameters: ReportParam[];
  menuKey: string;
  menuGroup: string;
  routeParam: string | null;
  chart: ReportChart | null;
  textExports: { format: string; label: Label }[];
  columns: { key: string; label: Label; type: ColumnType; link?: string }[];
  totals: string[];
}
