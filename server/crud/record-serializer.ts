import fastJson from 'fast-json-stringify';
import type { FieldDef } from '../../engine/schema/schema-types.ts';

type Row = Record<string, unknown>;
export type Serialize = (payload: unknown) => string;

/**
 * What a read answers, key by key in the order the reader builds it: the row's columns (each with the
 * field that decodes it, field-codec.ts; dotted link values with their target's field) and the
 * record's lines. Only keys the caller may read are named; nothing else is ever written out.
 */
export interface RecordShape {
  columns: [key: string, def: FieldDef | undefined][];
  /** The record's lines (a get's), written as JSON.stringify writes them: their rows come from selectAll. */
  lines: string[];
}

/**
 * The JSON schema of one value as the codec (field-codec.ts) hands it over, on both dialects:
 * numbers for integers, links, money and decimals, booleans, strings for text, dates and datetimes
 * (PostgreSQL's Dates are decoded to ISO text), and anything for JSON. `null` is allowed everywhere.
 * A value of another type makes the compiled function throw, and the answer is then written by
 * JSON.stringify (see `guarded`), so a surprise costs speed, never a different answer.
 */
function valueSchema(def: FieldDef | undefined): object {
  switch (def?.type) {
    case 'integer': case 'link': case 'money': case 'decimal': return { type: ['null', 'number'] };
    case 'boolean': return { type: ['null', 'boolean'] };
    case undefined: case 'json': case 'lines': return {};
    default: return { type: ['null', 'string'] };
  }
}

interface RecordSchema { schema: object; keys: string[]; textKeys: string[] }

function recordSchema(shape: RecordShape): RecordSchema {
  const properties: Record<string, object> = {};
  // the first of a repeated key holds its place, as in the row object (a Set: a field may be named "constructor")
  const seen = new Set<string>();
  for (const [key, def] of shape.columns) if (!seen.has(key)) { seen.add(key); properties[key] = valueSchema(def); }
  for (const key of shape.lines) if (!seen.has(key)) { seen.add(key); properties[key] = {}; }
  const textKeys = shape.columns.filter(([, def]) => (valueSchema(def) as { type?: string[] }).type?.includes('string')).map(([k]) => k);
  return { schema: { type: 'object', properties }, keys: [...seen], textKeys: [...new Set(textKeys)] };
}

/** Only the named keys, in the row's own order: what the compiled function writes, for the fallback. */
function pick(row: unknown, keys: ReadonlySet<string>): unknown {
  if (row === null || typeof row !== 'object') return row;
  const out: Row = {};
  for (const k in row as Row) if (keys.has(k)) out[k] = (row as Row)[k];
  return out;
}

/**
 * fast-json-stringify writes an object with a toString of its own (an array, a Date, a Buffer) given for a
 * string as that text, where JSON.stringify writes the object: such a row goes to the fallback. The codec
 * never hands one over for a text column; the check is a typeof per text column.
 */
function plainText(row: unknown, textKeys: string[]): boolean {
  if (row === null || typeof row !== 'object') return true;
  for (const k of textKeys) {
    const v = (row as Row)[k];
    if (typeof v === 'object' && v !== null) return false;
  }
  return true;
}

function guarded(compiled: Serialize, { keys, textKeys }: RecordSchema, many: boolean): Serialize {
  const allowed = new Set(keys);
  const fallback = (p: Row) => JSON.stringify({ ...p, data: many ? (p.data as unknown[]).map((r) => pick(r, allowed)) : pick(p.data, allowed) });
  return (payload) => {
    const p = payload as Row;
    if (many ? !(p.data as unknown[]).every((r) => plainText(r, textKeys)) : !plainText(p.data, textKeys)) return fallback(p);
    try {
      return compiled(payload);
    } catch {
      // a value of another type than its column's (fast-json-stringify throws rather than guess)
      return fallback(p);
    }
  };
}

/** `{"success": true, "data": {record}}`, a get's answer. */
export function compileRecordAnswer(shape: RecordShape): Serialize {
  const r = recordSchema(shape);
  const compiled = fastJson({ type: 'object', properties: { success: { type: 'boolean' }, data: r.schema } }) as Serialize;
  return guarded(compiled, r, false);
}

/** `{"success": true, "data": [records], "meta": {...}}`, a list page's answer; meta is small and written as it is. */
export function compileListAnswer(shape: RecordShape): Serialize {
  const r = recordSchema(shape);
  const compiled = fastJson({ type: 'object', properties: { success: { type: 'boolean' }, data: { type: 'array', items: r.schema }, meta: {} } }) as Serialize;
  return guarded(compiled, r, true);
}
