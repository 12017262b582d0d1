import type { FilterNode, FilterScalar } from './filter-types.ts';

/**
 * Evaluates a parsed filter against one in-memory record, the way the SQL
 * compiler would. Used for visibleIf/requiredIf in forms and validation.
 * A path through a link reads nested objects when present (record.customer_id.name_th).
 */
export function evaluateFilter(node: FilterNode, record: Record<string, unknown>): boolean {
  if (node.kind === 'and') return node.children.every((c) => evaluateFilter(c, record));
  if (node.kind === 'or') return node.children.some((c) => evaluateFilter(c, record));
  let value: unknown = record;
  for (const step of node.path) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[step] : undefined;
  }
  return compare(node.op, value, node.value);
}

function norm(v: unknown): unknown {
  if (v === true) return 1;
  if (v === false) return 0;
  return v;
}

function compare(op: string, actual: unknown, expected: FilterScalar | FilterScalar[]): boolean {
  const a = norm(actual);
  const isNull = a === null || a === undefined || a === '';
  switch (op) {
    case '_null': return expected ? isNull : !isNull;
    case '_nnull': return expected ? !isNull : isNull;
  }
  if (isNull) return op === '_neq' || op === '_nin' ? norm(expected) !== null : false;
  const e = Array.isArray(expected) ? expected.map(norm) : norm(expected);
  // numbers typed into a form arrive as strings; compare as numbers when both sides are numeric
  const same = (x: unknown, y: unknown) => x === y || (x !== '' && y !== '' && Number(x) === Number(y) && !Number.isNaN(Number(x)));
  const cmp = (x: unknown, y: unknown) => {
    const nx = Number(x), ny = Number(y);
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
    return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
  };
  switch (op) {
    case '_eq': return same(a, e);
    case '_neq': return !same(a, e);
    case '_lt': return cmp(a, e) < 0;
    case '_lte': return cmp(a, e) <= 0;
    case '_gt': return cmp(a, e) > 0;
    case '_gte': return cmp(a, e) >= 0;
    case '_in': return (e as unknown[]).some((x) => same(a, x));
    case '_nin': return !(e as unknown[]).some((x) => same(a, x));
    case '_between': return cmp(a, (e as unknown[])[0]) >= 0 && cmp(a, (e as unknown[])[1]) <= 0;
    case '_contains': return String(a).includes(String(e));
    case '_icontains': return String(a).toLowerCase().includes(String(e).toLowerCase());
    case '_starts_with': return String(a).startsWith(String(e));
  }
  return false;
}
