import type { EntitySchema, FieldDef } from '../schema/schema-types.ts';
import { hasColumn } from '../schema/schema-types.ts';

/**
 * `shape`: what a body says of its fields, judged before anything computes from it (fills, defaults): types,
 * formats, real dates, ranges, decimals, lengths, unknown and read-only fields, on the header and every line,
 * but nothing is required yet, since fills and defaults may still supply it (write pipeline, docs/architecture.md).
 */
export type WriteMode = 'create' | 'replace' | 'patch' | 'shape';

export const EMAIL_MAX = 320;
export const URL_MAX = 2048;
export const PHONE_PATTERN = '^[0-9+()#\\-. ]{3,32}$';
export const COLOR_PATTERN = '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$';
/** Plain text fields without their own maxLength still get one, so no request can store megabytes in a name. */
export const DEFAULT_STRING_MAX = 255;
export const DEFAULT_TEXT_MAX = 20000;
/** The largest money amount any field holds (issue 44 §9): 999,999,999,999.99, far inside 64-bit satang. */
export const MONEY_MAX = 999_999_999_999.99;

type JsonSchema = Record<string, unknown>;

/**
 * The largest magnitude a money or decimal field stores, whatever computed it: a scaled integer kept within the
 * exactly representable range (never a float in a bigint column), and money within MONEY_MAX.
 */
export function storableLimit(field: FieldDef): number {
  const scale = field.type === 'money' ? 2 : field.scale ?? 0;
  const digits = field.precision ?? 15;
  return Math.min(10 ** (digits - scale) - 10 ** -scale, Number.MAX_SAFE_INTEGER / 10 ** scale, field.type === 'money' ? MONEY_MAX : Infinity);
}

function nullable(schema: JsonSchema, field: FieldDef): JsonSchema {
  if (field.required) return schema;
  return { anyOf: [schema, { type: 'null' }] };
}

/** The JSON Schema of one field's value as clients send it. */
export function fieldJsonSchema(field: FieldDef, resolveLines?: (entity: string) => JsonSchema, shape = false): JsonSchema {
  // before the fills, an empty required value may still be filled: judged as required only afterwards
  if (shape && field.required) field = { ...field, required: false };
  const s: JsonSchema = {};
  const str = (max: number) => {
    s.type = 'string';
    s.maxLength = Math.min(field.maxLength ?? max, max);
    if (field.minLength !== undefined) s.minLength = field.minLength;
    if (field.pattern) s.pattern = field.pattern;
    if (field.required) s['x-not-blank'] = true;
  };
  switch (field.type) {
    case 'string': str(field.maxLength ?? DEFAULT_STRING_MAX); break;
    case 'text': str(field.maxLength ?? DEFAULT_TEXT_MAX); break;
    case 'file': case 'image': str(1024); break;
    case 'email': str(EMAIL_MAX); s.format = 'email'; break;
    case 'url': str(URL_MAX); s.format = 'uri'; break;
    case 'phone': str(32); s.pattern = field.pattern ?? PHONE_PATTERN; break;
    case 'color': s.type = 'string'; s.pattern = COLOR_PATTERN; break;
    case 'tax_id': s.type = 'string'; s.format = 'thai-tax-id'; break;
    case 'enum': s.type = 'string'; s.enum = field.options!.map((o) => o.value); break;
    case 'integer':
      s.type = 'integer';
      s.minimum = field.min ?? -2147483648;
      s.maximum = field.max ?? 2147483647;
      break;
    case 'decimal': case 'money': {
      const scale = field.type === 'money' ? 2 : field.scale ?? 0;
      s.type = 'number';
      s['x-scale'] = scale;
      const limit = storableLimit(field);
      s.minimum = field.min ?? -limit;
      s.maximum = field.max ?? limit;
      break;
    }
    case 'boolean': s.type = 'boolean'; break;
    case 'date': s.type = 'string'; s.format = 'date'; break;
    case 'datetime': s.type = 'string'; s.format = 'date-time'; break;
    // built-in rows may have negative ids (the Customer role is -1); existence is checked against the database
    case 'link': s.type = 'integer'; s.minimum = field.min ?? -2147483648; s.maximum = 2147483647; break;
    case 'json': s['x-json'] = true; break;
    case 'lines': return { type: 'array', maxItems: 1000, items: resolveLines ? resolveLines(field.entity!) : {} };
  }
  if (field.type !== 'string' && field.type !== 'text') {
    if (field.min !== undefined && s.minimum === undefined) s.minimum = field.min;
    if (field.max !== undefined && s.maximum === undefined) s.maximum = field.max;
  }
  if (field.type === 'json') return s;
  return nullable(s, field);
}

/**
 * The JSON Schema of a request body for one entity. Server and web compile
 * this same schema, so both say the same thing about the same input.
 * `lines` children accept an optional id (an existing line to keep and update).
 */
export function entityJsonSchema(entity: EntitySchema, mode: WriteMode, resolve: (name: string) => EntitySchema | undefined, asLine = false): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(entity.fields)) {
    if (field.readOnly) continue;
    properties[name] = fieldJsonSchema(field, (child) => {
      const c = resolve(child);
      return c ? entityJsonSchema(c, mode === 'patch' ? 'replace' : mode, resolve, true) : {};
    }, mode === 'shape');
    // a numbering series fills its field on create, so clients may leave it out; so does the server's
    // default of a `defaultFrom` field (the issuing company), which says so itself when it cannot
    const numbered = entity.numbering?.field === name;
    const serverDefault = mode === 'create' && field.defaultFrom !== undefined;
    if (field.required && hasColumn(field) && (mode === 'create' || mode === 'replace') && field.default === undefined && !numbered && !serverDefault) required.push(name);
    if (field.type === 'lines') {
      // the spec's deleteAddressList: ids of lines to remove, with the other lines merged instead of replaced
      properties[`delete_${name}`] = { type: 'array', maxItems: 1000, items: { type: 'integer', minimum: 1 } };
    }
  }
  if (asLine) properties.id = { type: 'integer', minimum: 1 };
  return { type: 'object', additionalProperties: false, properties, required };
}
