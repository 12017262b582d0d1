import type { Kysely } from 'kysely';
import { enablingSettings, type EntitySchema, type FieldDef } from '../../engine/schema/schema-types.ts';
import { flagOn, siteSettings, type SiteSettings } from '../settings/site-settings.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { fieldErrorText } from '../../engine/errors/error-texts.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { encodeColumns, withDefaults } from '../crud/record-values.ts';
import type { TableFile } from './table-file.ts';

type Row = Record<string, unknown>;

/** One problem of one row: the row number in the file (the header is row 1), the column as written there, and why, in Thai and English. */
export interface ImportError { row: number; column: string; code: string; reason: string; reason_th: string }
export interface ImportPlan {
  /** `ignored`: a column of a field the site settings switch off, passed over. */
  columns: { header: string; field: string | null; ignored?: boolean }[];
  total: number;
  valid: { row: number; body: Row }[];
  invalidRows: number;
  errors: ImportError[];
}

const IMPORTABLE = new Set(['string', 'text', 'integer', 'decimal', 'money', 'boolean', 'enum', 'link', 'date', 'email', 'phone', 'url', 'color']);
const TRUE = new Set(['1', 'true', 'yes', 'y', 'ใช่', 'จริง']);
const FALSE = new Set(['0', 'false', 'no', 'n', 'ไม่ใช่', 'ไม่', 'เท็จ']);
const CHUNK = 500;

function problem(row: number, column: string, e: Pick<FieldError, 'code' | 'message' | 'params'>): ImportError {
  return { row, column, code: e.code, reason: fieldErrorText(e, 'en'), reason_th: fieldErrorText(e, 'th') };
}

/**
 * Header text → field: the field's name, or its Thai or English label (as an export writes them).
 * A field the site settings switch off (schema key `enabledBy`: the product image while
 * is_enable_product_image is off) is not imported: its column is passed over, not an error.
 * An image field, while on, takes the id of a file already uploaded.
 */
function mapHeaders(entity: EntitySchema, headers: string[], site: SiteSettings): ImportPlan['columns'] {
  const by = new Map<string, string | false>();
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!(IMPORTABLE.has(f.type) || f.type === 'image') || f.readOnly) continue;
    const on = enablingSettings(f).every((n) => flagOn(site, n));
    for (const key of [name, f.label.th, f.label.en]) by.set(key.trim().toLowerCase(), on ? name : false);
  }
  return headers.map((header) => {
    const field = by.get(header.toLowerCase());
    return field === false ? { header, field: null, ignored: true } : { header, field: field ?? null };
  });
}

/** A cell's text as the value the field takes; what cannot be read is left as text for the validator to name. */
function coerce(f: FieldDef, text: string): unknown {
  switch (f.type) {
    case 'integer': case 'link': return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'decimal': case 'money': return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    case 'boolean': { const v = text.toLowerCase(); return TRUE.has(v) ? true : FALSE.has(v) ? false : text; }
    case 'enum': {
      const v = text.toLowerCase();
      const o = f.options?.find((x) => x.value.toLowerCase() === v || x.label.th.toLowerCase() === v || x.label.en.toLowerCase() === v);
      return o ? o.value : text;
    }
    default: return text;
  }
}

async function existing(k: Kysely<any>, table: string, column: string, values: unknown[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < values.length; i += CHUNK) {
    const part = values.slice(i, i + CHUNK);
    for (const r of await k.selectFrom(table).select(column).where(column, 'in', part as never).execute()) found.add(String(r[column]));
  }
  return found;
}

/**
 * Reads every row into a record and judges it as a create would: the same
 * validator (types, required, lengths, patterns, enums), unique fields against
 * the file and the table, links against their tables. Nothing is written.
 */
export async function planImport(service: EntityService, entityName: string, file: TableFile, ctx?: RequestContext): Promise<ImportPlan> {
  const entity = service.entity(entityName);
  const columns = mapHeaders(entity, file.headers, await siteSettings(service.db.kysely, service.registry));
  const errors: ImportError[] = [];
  columns.forEach((c) => { if (!c.field && c.header && !c.ignored) errors.push(problem(1, c.header, { code: 'unknown_field', message: 'is not a field of this record' })); });
  const named = new Set(columns.map((c) => c.field).filter(Boolean));
  const missing = Object.entries(entity.fields).filter(([n, f]) => f.required && f.default === undefined && IMPORTABLE.has(f.type) && !f.readOnly && !named.has(n)).map(([n]) => n);
  for (const m of missing) errors.push(problem(1, m, { code: 'required', message: 'is required' }));
  const headerOf = new Map(columns.filter((c) => c.field).map((c) => [c.field!, c.header]));
  const validate = service.validators.get(entity, 'create');
  const bad = new Set<number>();
  const candidates: { row: number; body: Row }[] = [];
  for (const r of file.rows) {
    const body: Row = {};
    columns.forEach((c, i) => {
      const text = (r.cells[i] ?? '').trim();
      if (c.field && text !== '') body[c.field] = coerce(entity.fields[c.field]!, text);
    });
    const problems = missing.length ? [] : validate(body);
    for (const p of problems) errors.push(problem(r.row, headerOf.get(p.field.split('.')[0]!) ?? p.field, p));
    if (problems.length || missing.length) bad.add(r.row);
    candidates.push({ row: r.row, body });
  }
  // unique fields: once in the file, and not already in the table (archived rows keep their values too)
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.unique || !named.has(name)) continue;
    const first = new Map<string, number>();
    for (const c of candidates) {
      const v = c.body[name];
      if (v === undefined || v === null) continue;
      const key = String(v);
      if (first.has(key)) { errors.push(problem(c.row, headerOf.get(name)!, { code: 'repeated', message: `repeats row ${first.get(key)}`, params: { row: first.get(key)! } })); bad.add(c.row); } else first.set(key, c.row);
    }
    const taken = await existing(service.db.kysely, entity.name, name, [...first.keys()]);
    for (const c of candidates) {
      if (c.body[name] !== undefined && taken.has(String(c.body[name])) && first.get(String(c.body[name])) === c.row) {
        errors.push(problem(c.row, headerOf.get(name)!, { code: 'unique', message: 'is already used by another record' }));
        bad.add(c.row);
      }
    }
  }
  // an image is a file already uploaded that the importer may see, as on a form
  for (const [name, f] of Object.entries(entity.fields)) {
    if ((f.type !== 'image' && f.type !== 'file') || !named.has(name)) continue;
    for (const c of candidates) {
      const v = c.body[name];
      if (v === undefined || v === null) continue;
      if (!ctx || !service.fileGuard || !(await service.fileGuard(ctx, String(v)))) {
        errors.push(problem(c.row, headerOf.get(name)!, { code: 'file', message: 'is not a file you uploaded or may see; upload it first' }));
        bad.add(c.row);
      }
    }
  }
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'link' || !named.has(name)) continue;
    const ids = [...new Set(candidates.map((c) => c.body[name]).filter((v) => typeof v === 'number'))];
    const found = await existing(service.db.kysely, f.entity!, 'id', ids);
    for (const c of candidates) {
      if (typeof c.body[name] === 'number' && !found.has(String(c.body[name]))) { errors.push(problem(c.row, headerOf.get(name)!, { code: 'link', message: 'points to a record that does not exist' })); bad.add(c.row); }
    }
  }
  errors.sort((a, b) => a.row - b.row);
  return { columns, total: file.rows.length, valid: candidates.filter((c) => !bad.has(c.row)), invalidRows: bad.size, errors };
}

/** Writes the planned rows in batches of 500 inside the caller's transaction; `progress` hears after each batch. */
export async function insertPlanned(trx: Kysely<any>, entity: EntitySchema, rows: { body: Row }[], userId: number | null, progress: (done: number) => void): Promise<number> {
  const now = new Date().toISOString();
  let done = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const values = rows.slice(i, i + CHUNK).map((r) => ({ ...encodeColumns(entity, withDefaults(entity, r.body, false, userId)), created_at: now, updated_at: now, created_by: userId, updated_by: userId }));
    await trx.insertInto(entity.name).values(values).execute();
    done += values.length;
    progress(done);
    // let progress requests be answered between batches
    await new Promise((r) => setImmediate(r));
  }
  return done;
}
