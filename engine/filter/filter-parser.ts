import type { EntitySchema, FieldDef } from '../schema/schema-types.ts';
import { SYSTEM_FIELDS, fieldOf } from '../schema/schema-types.ts';
import { MAX_ID } from '../validation/record-id.ts';
import { isCalendarDate, isSaneDateTime } from '../validation/value-limits.ts';
import { FILTER_OPERATORS, TEXT_OPERATORS, type FilterNode, type FilterOperator, type FilterScalar } from './filter-types.ts';

export class FilterError extends Error {
  constructor(
    readonly code: 'UNKNOWN_FIELD' | 'INVALID_FILTER' | 'FIELD_FORBIDDEN',
    message: string,
    readonly path: string,
  ) {
    super(message);
  }
}

export interface FieldResolver {
  entity(name: string): EntitySchema | undefined;
  /**
   * Optional field-level read check: filtering on a field you may not read is refused.
   * `viaLink` is true when the entity was reached through a link rather than being the one queried.
   */
  canRead?(entity: EntitySchema, field: string, viaLink: boolean): boolean;
}

const OPERATORS = new Set<string>(FILTER_OPERATORS);
const MAX_DEPTH = 8;
const MAX_IN_VALUES = 1000;
const STRING_TYPES = new Set(['string', 'text', 'email', 'url', 'phone', 'tax_id', 'color', 'enum', 'file', 'image']);

/** A field as a filter/sort sees it: schema fields plus the system columns every table has. */
export function describeField(entity: EntitySchema, name: string): FieldDef | undefined {
  const own = fieldOf(entity, name);
  if (own) return own;
  if ((SYSTEM_FIELDS as readonly string[]).includes(name)) {
    const type = name.endsWith('_at') ? 'datetime' : name.endsWith('_by') ? 'link' : 'integer';
    return { type, label: { th: name, en: name }, ...(type === 'link' ? { entity: 'user_account' } : {}) };
  }
  if (entity.parent && name === entity.parent.field) return { type: 'link', entity: entity.parent.entity, label: { th: name, en: name } };
  if (entity.kind === 'lines' && name === 'line_no') return { type: 'integer', label: { th: name, en: name } };
  return undefined;
}

/**
 * Resolves a dotted path ("customer_id.name_th") to the fields it crosses.
 * Every step but the last must be a link. Throws UNKNOWN_FIELD naming the exact step.
 */
/** How many links a dotted path may follow (customer_id.province is one). */
export const MAX_LINK_STEPS = 3;

/**
 * `throughLines` (filters only): a lines field may be crossed too, meaning "has a line where …"
 * (products with the option 12: {"attributes.option_id": {"_eq": 12}}); sorting and reading
 * fields never cross one, since a record has many lines.
 */
export function resolvePath(root: EntitySchema, path: string[], resolver: FieldResolver, where: string, throughLines = false): { entity: EntitySchema; field: FieldDef }[] {
  const steps: { entity: EntitySchema; field: FieldDef }[] = [];
  // every step is a join (or subquery): a 60-step path is never a real question, only load
  if (path.length > MAX_LINK_STEPS + 1) {
    throw new FilterError('INVALID_FILTER', `"${path.join('.')}" follows ${path.length - 1} links; at most ${MAX_LINK_STEPS} are allowed`, where);
  }
  let entity = root;
  path.forEach((name, i) => {
    const field = describeField(entity, name);
    if (!field || (field.type === 'lines' && !throughLines)) {
      throw new FilterError('UNKNOWN_FIELD', `"${name}" is not a field of ${entity.name}`, where);
    }
    if (resolver.canRead && !resolver.canRead(entity, name, i > 0)) {
      throw new FilterError('FIELD_FORBIDDEN', `You may not read "${name}" of ${entity.name}`, where);
    }
    steps.push({ entity, field });
    if (i < path.length - 1) {
      if ((field.type !== 'link' && field.type !== 'lines') || !field.entity) {
        throw new FilterError('UNKNOWN_FIELD', `"${name}" of ${entity.name} is not a link, so "${path.slice(i + 1).join('.')}" cannot be reached through it`, where);
      }
      const next = resolver.entity(field.entity);
      if (!next) throw new FilterError('UNKNOWN_FIELD', `"${name}" links to unknown entity ${field.entity}`, where);
      entity = next;
    }
  });
  return steps;
}

function isScalar(v: unknown): v is FilterScalar {
  // U+0000 cannot be compared with PostgreSQL text; refusing it keeps both dialects alike
  return v === null || (typeof v === 'string' ? !v.includes('\u0000') : ['number', 'boolean'].includes(typeof v));
}

const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/**
 * A value must fit the column it is compared with: PostgreSQL refuses "x" for
 * an integer column or 99999999999 for an int4, and such a refusal must be the
 * caller's 400, not the server's 500.
 */
function typeProblem(field: FieldDef, v: FilterScalar): string | null {
  if (v === null) return null;
  switch (field.type) {
    case 'integer': case 'link': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : NaN;
      return Number.isInteger(n) && Math.abs(n) <= MAX_ID ? null : 'takes whole numbers';
    }
    case 'money': case 'decimal': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && NUMBER_TEXT.test(v) ? Number(v) : NaN;
      const scale = field.type === 'money' ? 2 : field.scale ?? 0;
      return Number.isFinite(n) && Math.abs(n) * 10 ** scale <= Number.MAX_SAFE_INTEGER ? null : 'takes numbers';
    }
    case 'boolean':
      return [true, false, 0, 1, 'true', 'false', '0', '1'].includes(v) ? null : 'takes true or false';
    case 'date':
      return typeof v === 'string' && isCalendarDate(v) ? null : 'takes real calendar dates as YYYY-MM-DD (years 1000 to 9999)';
    case 'datetime':
      return typeof v === 'string' && (isSaneDateTime(v) || isCalendarDate(v)) ? null : 'takes ISO 8601 dates and times (years 1000 to 9999)';
    default:
      return null;
  }
}

function checkValue(op: FilterOperator, value: unknown, field: FieldDef, where: string): FilterScalar | FilterScalar[] {
  const bad = (why: string) => new FilterError('INVALID_FILTER', `${op} ${why}`, where);
  // JSON's 1e999 parses to Infinity, which no column holds and which JSON cannot even write back
  if ((Array.isArray(value) ? value : [value]).some((x) => typeof x === 'number' && !Number.isFinite(x))) throw bad('takes finite numbers only');
  const typed = <T extends FilterScalar | FilterScalar[]>(v: T): T => {
    for (const x of Array.isArray(v) ? v : [v]) {
      const problem = typeProblem(field, x);
      if (problem) throw bad(`on ${field.type} field ${problem}, not ${JSON.stringify(x)}`);
    }
    return v;
  };
  if (op === '_null' || op === '_nnull') {
    if (value !== true && value !== false && value !== 'true' && value !== 'false') throw bad('takes true or false');
    return value === true || value === 'true';
  }
  if (op === '_in' || op === '_nin' || op === '_between') {
    const list = typeof value === 'string' ? value.split(',') : value;
    if (!Array.isArray(list) || !list.every(isScalar)) throw bad('takes a list of values');
    if (op === '_between' && list.length !== 2) throw bad('takes exactly two values [from, to]');
    if (list.length > MAX_IN_VALUES) throw bad(`takes at most ${MAX_IN_VALUES} values`);
    if (list.length === 0) throw bad('takes at least one value');
    return typed(list);
  }
  if (!isScalar(value)) throw bad('takes a single value');
  if (TEXT_OPERATORS.has(op)) {
    if (!STRING_TYPES.has(field.type)) throw bad(`applies to text fields only`);
    if (typeof value !== 'string' && typeof value !== 'number') throw bad('takes text');
    return String(value);
  }
  if (field.type === 'json') throw bad('cannot compare JSON fields; use _null or _nnull');
  return typed(value);
}

/**
 * Checks a raw filter against an entity and returns its normalized tree.
 * Nothing from the raw filter reaches SQL except through this function:
 * field names are looked up in the schema, values are kept apart for binding.
 */
export function parseFilter(raw: unknown, entity: EntitySchema, resolver: FieldResolver, prefix: string[] = [], depth = 0, where = 'filter'): FilterNode {
  if (depth > MAX_DEPTH) throw new FilterError('INVALID_FILTER', `nests deeper than ${MAX_DEPTH} levels`, where);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new FilterError('INVALID_FILTER', 'must be a JSON object such as {"field": {"_eq": "value"}}', where);
  }
  const children: FilterNode[] = [];
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const here = `${where}.${key}`;
    if (key === '_and' || key === '_or') {
      if (!Array.isArray(value)) throw new FilterError('INVALID_FILTER', `${key} takes a list of filters`, here);
      const parts = value.map((v, i) => parseFilter(v, entity, resolver, prefix, depth + 1, `${here}[${i}]`));
      children.push(key === '_and' ? { kind: 'and', children: parts } : { kind: 'or', children: parts });
      continue;
    }
    if (key.startsWith('_')) {
      throw new FilterError('INVALID_FILTER', `"${key}" is not an operator here; operators go inside a field, e.g. {"name": {"_eq": "x"}}`, here);
    }
    const path = [...prefix, ...key.split('.')];
    const steps = resolvePath(entity, path, resolver, here, true);
    const last = steps[steps.length - 1]!.field;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw new FilterError('INVALID_FILTER', `"${key}" needs an operator object such as {"_eq": ...}`, here);
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) throw new FilterError('INVALID_FILTER', `"${key}" has no operator`, here);
    for (const [op, operand] of entries) {
      if (OPERATORS.has(op)) {
        // a lines field is only crossed ("attributes.option_id"), never compared itself
        if (last.type === 'lines') throw new FilterError('UNKNOWN_FIELD', `"${key}" is a list of lines; filter on one of its fields, e.g. "${key}.<field>"`, here);
        children.push({ kind: 'cond', path, op: op as FilterOperator, value: checkValue(op as FilterOperator, operand, last, `${here}.${op}`) });
      } else if (op.startsWith('_')) {
        throw new FilterError('INVALID_FILTER', `unknown operator "${op}"; use one of ${FILTER_OPERATORS.join(' ')}`, `${here}.${op}`);
      } else {
        // nested relational form: {"customer_id": {"name_th": {...}}}
        children.push(parseFilter({ [op]: operand }, entity, resolver, path, depth + 1, here));
      }
    }
  }
  return children.length === 1 ? children[0]! : { kind: 'and', children };
}
