/**
 * The filter grammar, shared by the list API, visibleIf/requiredIf conditions
 * and (later) report definitions and permission rules. It follows Directus:
 *   {"status": {"_eq": "active"}}
 *   {"_or": [{"code": {"_starts_with": "C"}}, {"customer_id.name_th": {"_icontains": "ไทย"}}]}
 *   {"customer_id": {"name_th": {"_icontains": "x"}}}   (nested form of the dotted path)
 */
export const FILTER_OPERATORS = [
  '_eq', '_neq', '_lt', '_lte', '_gt', '_gte', '_in', '_nin', '_null', '_nnull',
  '_contains', '_icontains', '_starts_with', '_between',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterScalar = string | number | boolean | null;

/** The raw, JSON form written by clients and schema authors. */
export type Filter = { [key: string]: unknown };

/** The checked form: every path resolved against the schema, every value a scalar or a list of scalars. */
export type FilterNode =
  | { kind: 'and'; children: FilterNode[] }
  | { kind: 'or'; children: FilterNode[] }
  | { kind: 'cond'; path: string[]; op: FilterOperator; value: FilterScalar | FilterScalar[] };

export const TEXT_OPERATORS: ReadonlySet<FilterOperator> = new Set(['_contains', '_icontains', '_starts_with']);
