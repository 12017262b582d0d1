import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { EntitySchema } from '../schema/schema-types.ts';
import { SYSTEM_FIELDS, hasColumn } from '../schema/schema-types.ts';
import type { FieldError } from '../errors/error-catalogue.ts';
import { parseFilter } from '../filter/filter-parser.ts';
import { evaluateFilter } from '../filter/filter-evaluator.ts';
import { isValidThaiTaxId } from './thai-tax-id.ts';
import { entityJsonSchema, type WriteMode } from './entity-json-schema.ts';
import { decimalPlaces, isCalendarDate, isSaneDateTime, jsonProblem } from './value-limits.ts';

// ajv-formats is CommonJS; its default export arrives wrapped under some bundlers
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020, f: string[]) => void;

export function createAjv(): Ajv2020 {
  // verbose: errors carry their schema value, which the x-scale message quotes ("at most 2 decimal places")
  const ajv = new Ajv2020({ allErrors: true, strict: false, useDefaults: false, verbose: true });
  addFormats(ajv, ['email', 'uri']);
  // real calendar days in years both databases store; ajv-formats' own accept year 0 and 275760
  ajv.addFormat('date', { type: 'string', validate: isCalendarDate });
  ajv.addFormat('date-time', { type: 'string', validate: isSaneDateTime });
  ajv.addFormat('thai-tax-id', { type: 'string', validate: isValidThaiTaxId });
  ajv.addKeyword({
    keyword: 'x-not-blank',
    type: 'string',
    errors: true,
    validate: function notBlank(this: unknown, _schema: boolean, data: string) { return data.trim().length > 0; },
  });
  ajv.addKeyword({
    keyword: 'x-scale',
    type: 'number',
    // judged on the number's own digits: 12.3400000001 has 10 decimals, even though ×100 rounds to a whole number
    validate: (scale: number, data: number) => decimalPlaces(data) <= scale,
  });
  ajv.addKeyword({
    keyword: 'x-json',
    errors: true,
    validate: function jsonLimits(this: unknown, _schema: boolean, data: unknown) {
      const problem = jsonProblem(data);
      (jsonLimits as unknown as { errors: unknown[] }).errors = problem ? [{ keyword: 'x-json', message: problem, params: {} }] : [];
      return !problem;
    },
  });
  return ajv;
}

const MESSAGES: Record<string, (e: ErrorObject) => string> = {
  required: () => 'is required',
  'x-not-blank': () => 'is required',
  maxLength: (e) => `must be at most ${(e.params as { limit: number }).limit} characters`,
  minLength: (e) => `must be at least ${(e.params as { limit: number }).limit} characters`,
  minimum: (e) => `must be at least ${(e.params as { limit: number }).limit}`,
  maximum: (e) => `must be at most ${(e.params as { limit: number }).limit}`,
  pattern: () => 'is not in the expected format',
  enum: (e) => `must be one of: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`,
  'x-scale': (e) => `must have at most ${e.schema as number} decimal places`,
  'x-json': (e) => e.message ?? 'is too large or too deeply nested',
  maxItems: (e) => `must have at most ${(e.params as { limit: number }).limit} lines`,
  additionalProperties: () => 'is not a field of this record',
};

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'is not a valid email',
  uri: 'is not a valid URL',
  date: 'is not a valid date (YYYY-MM-DD, a real day in the years 1000 to 9999)',
  'date-time': 'is not a valid date and time (ISO 8601, years 1000 to 9999)',
  'thai-tax-id': 'is not a valid Thai tax ID (13 digits with a correct check digit)',
};

const TYPE_MESSAGES: Record<string, string> = {
  string: 'must be text',
  integer: 'must be a whole number',
  number: 'must be a number',
  boolean: 'must be true or false',
  array: 'must be a list',
  object: 'must be an object',
};

/** Every field-level code this validator can answer with; each needs a text in engine/errors/error-texts.ts. */
export const VALIDATION_CODES: readonly string[] = [
  ...Object.keys(MESSAGES).filter((k) => k !== 'x-not-blank' && k !== 'additionalProperties'), 'unknown_field', 'invalid', 'read_only', 'nul', 'type',
  ...Object.keys(FORMAT_MESSAGES), ...Object.keys(TYPE_MESSAGES).map((t) => `type.${t}`),
];

function fieldPath(e: ErrorObject): string {
  const parts = e.instancePath.split('/').filter(Boolean);
  if (e.keyword === 'required') parts.push((e.params as { missingProperty: string }).missingProperty);
  if (e.keyword === 'additionalProperties') parts.push((e.params as { additionalProperty: string }).additionalProperty);
  return parts.join('.');
}

/** Empty input on a required field is "required", whatever other keyword (type, pattern, minLength) tripped first. */
function isMissing(e: ErrorObject): boolean {
  if (e.keyword === 'required' || e.keyword === 'x-not-blank') return true;
  if (e.data === null) return true;
  const notBlank = (e.parentSchema as Record<string, unknown> | undefined)?.['x-not-blank'];
  return notBlank === true && typeof e.data === 'string' && e.data.trim() === '';
}

function paramsOf(e: ErrorObject): Record<string, string | number> | undefined {
  const p = e.params as Record<string, unknown>;
  if (typeof p.limit === 'number') return { limit: p.limit };
  if (e.keyword === 'x-scale') return { limit: e.schema as number };
  if (e.keyword === 'enum') return { allowed: (p.allowedValues as unknown[]).join(', ') };
  if (e.keyword === 'type') return { type: Array.isArray(p.type) ? String(p.type[0]) : String(p.type) };
  if (e.keyword === 'format') return { format: String(p.format) };
  return undefined;
}

function toFieldError(e: ErrorObject): FieldError {
  if (isMissing(e)) return { field: fieldPath(e), code: 'required', message: 'is required' };
  let code = e.keyword;
  let message: string;
  if (e.keyword === 'format') {
    const format = (e.params as { format: string }).format;
    code = format;
    message = FORMAT_MESSAGES[format] ?? `is not a valid ${format}`;
  } else if (e.keyword === 'type') {
    const t = (e.params as { type: string | string[] }).type;
    message = TYPE_MESSAGES[Array.isArray(t) ? t[0]! : t] ?? `must be ${String(t)}`;
  } else {
    message = MESSAGES[e.keyword]?.(e) ?? e.message ?? 'is not valid';
  }
  if (e.keyword === 'additionalProperties') code = 'unknown_field';
  if (!MESSAGES[e.keyword] && e.keyword !== 'format' && e.keyword !== 'type') code = 'invalid';
  const params = paramsOf(e);
  return { field: fieldPath(e), code, message, ...(params ? { params } : {}) };
}

/** anyOf [value, null] reports both branches; the one a person needs is the value branch, and "required" wins over the rest. */
function simplify(errors: ErrorObject[]): FieldError[] {
  const out = new Map<string, FieldError>();
  for (const e of errors) {
    if (e.keyword === 'anyOf') continue;
    if (e.keyword === 'type' && (e.params as { type: string }).type === 'null') continue;
    const fe = toFieldError(e);
    if (!out.has(fe.field) || (fe.code === 'required' && out.get(fe.field)!.code !== 'required')) out.set(fe.field, fe);
  }
  return [...out.values()];
}

/** PostgreSQL text and jsonb cannot hold U+0000, so no value may carry it on either dialect. */
export function containsNul(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return v.includes('\u0000');
  if (depth > 20 || v === null || typeof v !== 'object') return false;
  return Object.entries(v).some(([k, x]) => k.includes('\u0000') || containsNul(x, depth + 1));
}

export interface EntityValidator {
  /** Returns the problems of a body, empty when it is valid. `current` is the stored row, for requiredIf on updates. */
  (body: unknown, current?: Record<string, unknown>): FieldError[];
}

export function createEntityValidator(ajv: Ajv2020, entity: EntitySchema, mode: WriteMode, resolve: (name: string) => EntitySchema | undefined): EntityValidator {
  const compiled: ValidateFunction = ajv.compile(entityJsonSchema(entity, mode, resolve));
  const conditional = Object.entries(entity.fields)
    .filter(([, f]) => f.requiredIf && hasColumn(f))
    .map(([name, f]) => ({ name, when: parseFilter(f.requiredIf, entity, { entity: resolve }) }));
  const windows = Object.entries(entity.fields).filter(([, f]) => f.claimWindow).map(([name, f]) => ({ name, ...f.claimWindow! }));
  const system = new Set<string>(SYSTEM_FIELDS);
  const readOnly = new Set(Object.entries(entity.fields).filter(([, f]) => f.readOnly).map(([n]) => n));
  return (body, current) => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      return [{ field: '', code: 'type', message: 'the body must be a JSON object' }];
    }
    const own: FieldError[] = [];
    for (const key of Object.keys(body)) {
      if (system.has(key) || readOnly.has(key)) own.push({ field: key, code: 'read_only', message: 'cannot be written' });
    }
    for (const [key, v] of Object.entries(body)) {
      if (containsNul(v)) own.push({ field: key, code: 'nul', message: 'must not contain the NUL character' });
    }
    const rest = own.length ? Object.fromEntries(Object.entries(body).filter(([k]) => !system.has(k) && !readOnly.has(k))) : body;
    const errors = compiled(rest) ? [] : simplify(compiled.errors ?? []);
    const merged = { ...(current ?? {}), ...(body as Record<string, unknown>) };
    for (const c of mode === 'shape' ? [] : conditional) {
      const v = merged[c.name];
      const empty = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
      if (empty && evaluateFilter(c.when, merged) && !errors.some((e) => e.field === c.name)) {
        errors.push({ field: c.name, code: 'required', message: 'is required' });
      }
    }
    if (mode !== 'shape') for (const w of windows) if (!errors.some((e) => e.field === w.name)) errors.push(...claimWindowProblems(w, merged));
    return [...own, ...errors];
  };
}

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;

/**
 * A tax invoice received (`name`) is claimed in the month of the record's `recordedOn` date: not dated after it,
 * and not from a month more than `months` before (Revenue Code s. 82/3). Judged once both dates are there.
 */
function claimWindowProblems(w: { name: string; recordedOn: string; months: number }, record: Record<string, unknown>): FieldError[] {
  const [date, recorded] = [record[w.name], record[w.recordedOn]];
  if (typeof date !== 'string' || typeof recorded !== 'string' || !isCalendarDate(date.slice(0, 10)) || !isCalendarDate(recorded.slice(0, 10))) return [];
  const [d, r] = [date.slice(0, 10), recorded.slice(0, 10)];
  if (d > r) return [{ field: w.name, code: 'after_recorded', message: `must not be after ${r}, the date it is recorded on (its VAT is claimed in that month)`, params: { recorded: r } }];
  if (monthIndex(r) - monthIndex(d) > w.months) {
    return [{ field: w.name, code: 'claim_window_passed', message: `is more than ${w.months} months before ${r}, the date it is recorded on: its VAT can no longer be claimed (Revenue Code s. 82/3)`, params: { recorded: r, months: w.months } }];
  }
  return [];
}
