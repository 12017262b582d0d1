import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { hasColumn } from '../../engine/schema/schema-types.ts';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';

/**
 * Converts between the API's JSON values and stored values, the same on both
 * dialects: money and decimals are scaled integers (exact sums in SQL),
 * booleans 0/1, JSON as text, datetimes as UTC ISO strings.
 */
export function scaleOf(field: FieldDef): number {
  return field.type === 'money' ? 2 : field.type === 'decimal' ? field.scale ?? 0 : 0;
}

export function toDb(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'boolean': return value === true || value === 1 || value === '1' || value === 'true' ? 1 : 0;
    // validation allows at most `scale` decimals, so this is exact: no float multiplication
    case 'money': case 'decimal': return toScaledInteger(Number(value), scaleOf(field));
    case 'json': return JSON.stringify(value);
    case 'datetime': return new Date(value as string).toISOString();
    case 'integer': case 'link': return Number(value);
    default: return value;
  }
}

/**
 * A stored scaled integer as the API's number. For a whole number within 2^53 the division is
 * exact to the last bit: both operands are exact doubles and IEEE division rounds correctly, so
 * it gives the double nearest to the decimal, as parsing its toFixed text would, at a fraction of
 * the cost (a list page decodes hundreds). Anything else is rounded to the scale through the text.
 */
export function unscale(n: number, scale: number): number {
  if (scale === 0) return n;
  return Number.isSafeInteger(n) ? n / 10 ** scale : Number((n / 10 ** scale).toFixed(scale));
}

export function fromDb(field: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (field.type) {
    case 'boolean': return Number(value) === 1;
    case 'money': case 'decimal': return unscale(Number(value), scaleOf(field));
    case 'json': return typeof value === 'string' ? JSON.parse(value) : value;
    case 'datetime': return value instanceof Date ? value.toISOString() : value;
    case 'integer': case 'link': return Number(value);
    default: return value;
  }
}

const SYSTEM_DEFS: Record<string, FieldDef> = {
  id: { type: 'integer', label: { th: 'รหัส', en: 'ID' } },
  created_at: { type: 'datetime', label: { th: 'สร้างเมื่อ', en: 'Created at' } },
  created_by: { type: 'integer', label: { th: 'สร้างโดย', en: 'Created by' } },
  updated_at: { type: 'datetime', label: { th: 'แก้ไขเมื่อ', en: 'Updated at' } },
  updated_by: { type: 'integer', label: { th: 'แก้ไขโดย', en: 'Updated by' } },
  line_no: { type: 'integer', label: { th: 'ลำดับ', en: 'Line' } },
};

/** Every stored column of an entity with the field definition that decodes it. */
export function columnDefs(entity: EntitySchema): Map<string, FieldDef> {
  const out = new Map<string, FieldDef>();
  out.set('id', SYSTEM_DEFS.id!);
  if (entity.parent) out.set(entity.parent.field, { type: 'link', entity: entity.parent.entity, label: { th: entity.parent.field, en: entity.parent.field } });
  if (entity.kind === 'lines') out.set('line_no', SYSTEM_DEFS.line_no!);
  for (const [name, f] of Object.entries(entity.fields)) if (hasColumn(f)) out.set(name, f);
  for (const name of ['created_at', 'created_by', 'updated_at', 'updated_by']) out.set(name, SYSTEM_DEFS[name]!);
  return out;
}

/** Decodes a row as stored into the API's JSON form; keys the entity does not know (dotted link values) pass through. */
export function decodeRow(columns: Map<string, FieldDef>, row: Record<string, unknown>, softDelete: string | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row) {
    if (key === softDelete) continue;
    const def = columns.get(key);
    out[key] = def ? fromDb(def, row[key]) : row[key] instanceof Date ? (row[key] as Date).toISOString() : row[key];
  }
  return out;
}


type Decoder = (v: unknown) => unknown;

/** The conversion a stored value needs, or null when the driver already returns the API's form. */
function decoderFor(field: FieldDef): Decoder | null {
  switch (field.type) {
    case 'boolean': case 'money': case 'decimal': case 'json':
      return (v) => fromDb(field, v);
    case 'datetime':
      return (v) => (v instanceof Date ? v.toISOString() : v);
    default:
      return null;
  }
}

/**
 * A row decoder specialised to one column set: it converts, in place, only
 * the columns whose stored form differs from the API's (money, booleans,
 * JSON, dates from PostgreSQL), which is most of the cost of a list page.
 */
export function rowDecoder(columns: Map<string, FieldDef>, softDelete: string | null): (row: Record<string, unknown>) => Record<string, unknown> {
  const steps: [string, Decoder][] = [];
  for (const [key, def] of columns) {
    const d = decoderFor(def);
    if (d) steps.push([key, d]);
  }
  return (row) => {
    for (const [key, d] of steps) {
      const v = row[key];
      if (v !== null && v !== undefined) row[key] = d(v);
    }
    // undefined keys are left out of JSON; cheaper than delete, which de-optimises the object
    if (softDelete && softDelete in row) row[softDelete] = undefined;
    return row;
  };
}
