import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { hasColumn } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { toDb } from '../db/field-codec.ts';
import { storableLimit } from '../../engine/validation/entity-json-schema.ts';
import { uniqueIndexName } from '../db/schema-sync.ts';
import { AppError } from '../errors/app-error.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

/** Pure helpers that turn request bodies into stored values and failures into catalogue errors. */

type Row = Record<string, unknown>;

export function searchFields(entity: EntitySchema): string[] {
  const set = new Set(entity.searchFields ?? []);
  for (const [name, f] of Object.entries(entity.fields)) if (f.searchable) set.add(name);
  return [...set];
}

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
}

export function notFound(entity: EntitySchema, id: number): AppError {
  return new AppError('NOT_FOUND', `${entity.label.en} ${id} does not exist or you cannot see it`, undefined, { entity: entity.label, id });
}

/** The labels of the fields of a unique index, both languages, for the CONFLICT text ("มีสาเหตุของเสียอื่นใช้รหัสนี้แล้ว"). */
export function uniqueLabels(entity: EntitySchema, fields: string[] | null | undefined): { th: string; en: string } | undefined {
  if (!fields?.length) return undefined;
  const of = (lang: 'th' | 'en') => fields.map((f) => entity.fields[f]?.label[lang] ?? f).join(', ');
  return { th: of('th'), en: of('en').toLowerCase() };
}

export function describeErrors(errors: FieldError[]): string {
  return errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('; ');
}

export function bodyError(errors: FieldError[]): AppError {
  const code = errors.some((e) => e.code === 'unknown_field') ? 'UNKNOWN_FIELD' : errors.some((e) => e.code === 'read_only') ? 'READ_ONLY_FIELD' : 'VALIDATION_FAILED';
  return new AppError(code, describeErrors(errors), { fields: errors });
}

/** "$NOW" and "$CURRENT_USER" are defaults resolved when a row is created. */
export function resolveDefault(field: FieldDef, userId: number | null): unknown {
  if (field.default === '$NOW') {
    // a date is the business's day (Bangkok), which UTC's date is not between 17:00 and 24:00 UTC
    const now = businessClock.now();
    return field.type === 'date' ? businessToday(now, businessClock.timeZone) : now.toISOString();
  }
  if (field.default === '$CURRENT_USER') return userId;
  return field.default;
}

/** Fills field defaults on create; on replace (PUT) absent fields return to their default or empty. */
export function withDefaults(entity: EntitySchema, body: Row, replace = false, userId: number | null = null): Row {
  const out: Row = { ...body };
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!hasColumn(f) || name in out) continue;
    // read-only fields are the server's: a create gives them their default, a replace leaves them be
    if (f.readOnly) { if (!replace && f.default !== undefined) out[name] = resolveDefault(f, userId); continue; }
    if (f.default !== undefined) out[name] = resolveDefault(f, userId);
    else if (replace) out[name] = null;
  }
  return out;
}

export function encodeColumns(entity: EntitySchema, input: Row): Row {
  const out: Row = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    // read-only values reach here only from the server (numbers, computed amounts): validation refused them in bodies
    if (!hasColumn(f) || !(name in input)) continue;
    const v = input[name];
    // a computed amount (a total of many lines) is bounded as a sent one is: past it, a scaled integer is no longer exact
    if ((f.type === 'money' || f.type === 'decimal') && v !== null && v !== undefined && !(Math.abs(Number(v)) <= storableLimit(f))) {
      const limit = storableLimit(f);
      throw bodyError([{ field: name, code: 'maximum', message: `must be at most ${limit}`, params: { limit } }]);
    }
    out[name] = toDb(f, v);
  }
  return out;
}

export function uniqueFields(entity: EntitySchema, index: string | null): string[] | null {
  if (!index) return null;
  for (const [name, f] of Object.entries(entity.fields)) if (f.unique && uniqueIndexName(entity.name, [name]) === index) return [name];
  for (const ix of entity.indexes ?? []) if (ix.unique && uniqueIndexName(entity.name, ix.fields) === index) return ix.fields;
  return null;
}

export function uniqueFieldsOfLines(registry: SchemaRegistry, entity: EntitySchema, index: string | null): string[] | null {
  for (const f of Object.values(entity.fields)) {
    if (f.type !== 'lines') continue;
    const child = registry.get(f.entity!);
    const found = child && uniqueFields(child, index);
    if (found) return found.map((n) => `${f.entity}.${n}`);
  }
  return null;
}
