import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { generatedKey } from '../db/dialect-sql.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EnumOption, FieldDef, FieldType } from '../../engine/schema/schema-types.ts';
import type { LocalizedText } from '../../engine/schema/localized-text.ts';
import { CUSTOM_FIELD_NAME, CUSTOM_FIELD_TYPES, isTextType, type CustomField } from '../../engine/schema/custom-field-layer.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { AppError } from '../errors/app-error.ts';

/** The counter in schema_state that server/meta/schema-overrides.ts polls: one version for overrides and custom fields. */
import { bumpVersion } from './schema-version.ts';
export const CUSTOM_FIELD_TABLE = 'custom_field';

export interface CustomFieldRow {
  id: number;
  entity: string;
  name: string;
  type: FieldType;
  label: LocalizedText;
  required: boolean;
  options: EnumOption[] | null;
  active: boolean;
  created_at: string;
  created_by: number | null;
}

export async function ensureCustomFieldTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable(CUSTOM_FIELD_TABLE).ifNotExists()
    .addColumn('id', 'integer', (c) => generatedKey(db.kysely, c))
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('required', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('options', 'text')
    .addColumn('active', 'smallint', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer')
    .addUniqueConstraint('ux_custom_field_entity_name', ['entity', 'name'])
    .execute();
}

function decode(r: Record<string, unknown>): CustomFieldRow {
  return {
    id: Number(r.id), entity: String(r.entity), name: String(r.name), type: r.type as FieldType,
    label: JSON.parse(String(r.label)) as LocalizedText, required: Number(r.required) === 1,
    options: r.options ? JSON.parse(String(r.options)) as EnumOption[] : null,
    active: Number(r.active) === 1, created_at: String(r.created_at), created_by: r.created_by === null ? null : Number(r.created_by),
  };
}

/** The field definition a custom field contributes to its entity's schema. */
export function fieldDefOf(r: Pick<CustomFieldRow, 'type' | 'label' | 'required' | 'options'>): FieldDef {
  const f: FieldDef = { type: r.type, label: r.label };
  if (r.required) f.required = true;
  if (r.type === 'enum') f.options = r.options ?? [];
  if (r.type === 'string') f.maxLength = 200;
  if (r.type === 'text') f.maxLength = 4000;
  if (r.type === 'decimal') { f.precision = 18; f.scale = 4; }
  if (isTextType(r.type)) f.searchable = true;
  return f;
}

export async function listCustomFields(k: Kysely<any>, entity?: string): Promise<CustomFieldRow[]> {
  let q = k.selectFrom(CUSTOM_FIELD_TABLE).selectAll().orderBy('entity').orderBy('id');
  if (entity) q = q.where('entity', '=', entity);
  return (await q.execute()).map(decode);
}

/** The active custom fields as the registry's layer (called by refreshOverrides on every newer version). */
export async function loadCustomFields(db: Database): Promise<CustomField[]> {
  const rows = await listCustomFields(db.kysely);
  return rows.filter((r) => r.active).map((r) => ({ entity: r.entity, name: r.name, field: fieldDefOf(r) }));
}

export interface CustomFieldInput {
  entity: string;
  name: string;
  type: FieldType;
  label: LocalizedText;
  required: boolean;
  options: EnumOption[] | null;
}

const LABEL_MAX = 200;
const MAX_OPTIONS = 200;
const KEYS = new Set(['entity', 'name', 'type', 'label', 'required', 'options']);

function text(v: unknown, max: number): string | null {
  return typeof v === 'string' && v.trim() !== '' && v.length <= max && !v.includes('\u0000') ? v.trim() : null;
}

/** Checks a POST body; every problem is a field error of VALIDATION_FAILED (a 400, never a 500). */
export function parseCustomFieldInput(body: unknown, registry: SchemaRegistry): CustomFieldInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'Send the custom field as a JSON object: {entity, name, type, label: {th, en}, required, options}');
  const b = body as Record<string, unknown>;
  const errors: FieldError[] = [];
  for (const k of Object.keys(b)) if (!KEYS.has(k)) errors.push({ field: k, code: 'unknown_field', message: 'is not a field of a custom field' });
  const entityName = typeof b.entity === 'string' ? b.entity : '';
  const entity = registry.fileSchema(entityName);
  if (!entityName) errors.push({ field: 'entity', code: 'required', message: 'is required' });
  else if (!entity) errors.push({ field: 'entity', code: 'custom_field_entity', message: 'is not an entity' });
  else if (entity.kind === 'lines' || entity.kind === 'ledger') errors.push({ field: 'entity', code: 'custom_field_entity', message: 'lines and ledgers take no custom fields' });
  let name = typeof b.name === 'string' ? b.name.trim() : '';
  // the cf_ prefix is added when missing: a later schema file can never add a field of the same name
  if (name && !name.startsWith('cf_')) name = `cf_${name}`;
  if (!name) errors.push({ field: 'name', code: 'required', message: 'is required' });
  else if (!CUSTOM_FIELD_NAME.test(name)) errors.push({ field: 'name', code: 'pattern', message: 'must be lower-case letters, digits and _ (at most 40 after cf_)' });
  else if (entity && (Object.hasOwn(entity.fields, name) || ['id', 'created_at', 'created_by', 'updated_at', 'updated_by', 'is_deleted', 'line_no'].includes(name))) {
    errors.push({ field: 'name', code: 'unique', message: 'is already used by another record' });
  }
  const type = b.type as FieldType;
  if (!(CUSTOM_FIELD_TYPES as readonly string[]).includes(String(type))) {
    errors.push({ field: 'type', code: 'enum', message: `must be one of: ${CUSTOM_FIELD_TYPES.join(', ')}`, params: { allowed: CUSTOM_FIELD_TYPES.join(', ') } });
  }
  const l = (b.label ?? {}) as Record<string, unknown>;
  const th = text(l.th, LABEL_MAX);
  const en = text(l.en, LABEL_MAX) ?? th;
  if (!th) errors.push({ field: 'label', code: 'required', message: 'needs a Thai label (th) of at most 200 characters' });
  if (b.required !== undefined && typeof b.required !== 'boolean') errors.push({ field: 'required', code: 'type.boolean', message: 'must be true or false' });
  let options: EnumOption[] | null = null;
  if (type === 'enum') {
    const raw = b.options;
    if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_OPTIONS) errors.push({ field: 'options', code: 'custom_field_options', message: 'an enum needs a list of options' });
    else {
      options = [];
      const seen = new Set<string>();
      for (const o of raw as unknown[]) {
        const obj = (o ?? {}) as Record<string, unknown>;
        const value = typeof o === 'string' ? text(o, 100) : text(obj.value, 100);
        const lab = typeof o === 'string' ? null : (obj.label ?? {}) as Record<string, unknown>;
        const oth = lab ? text(lab.th, LABEL_MAX) ?? value : value;
        const oen = lab ? text(lab.en, LABEL_MAX) ?? oth : value;
        if (!value || seen.has(value)) { errors.push({ field: 'options', code: 'custom_field_options', message: 'each option needs a value of its own' }); break; }
        seen.add(value);
        options.push({ value, label: { th: oth!, en: oen! } });
      }
    }
  } else if (b.options !== undefined && b.options !== null) {
    errors.push({ field: 'options', code: 'custom_field_options', message: 'only an enum has options' });
  }
  if (errors.length) throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field} ${e.message}`).join('; '), { fields: errors });
  return { entity: entityName, name, type, label: { th: th!, en: en! }, required: b.required === true, options };
}

/**
 * Adds the column online and stores the field, in one transaction (DDL is transactional on
 * both SQLite and PostgreSQL, so a failure leaves neither), then bumps the schema version so
 * every instance merges it within one poll. A removed field of the same name and type comes
 * back with its data; a different type is refused, since the column keeps its type.
 */
export async function addCustomField(db: Database, input: CustomFieldInput, userId: number | null): Promise<{ row: CustomFieldRow; reactivated: boolean }> {
  const def = fieldDefOf(input);
  try {
    return await addInTransaction(db, input, def, userId);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // two administrators adding the same field at once: the second one's ALTER or insert fails once the first commits
    const now = await db.kysely.selectFrom(CUSTOM_FIELD_TABLE).select('id').where('entity', '=', input.entity).where('name', '=', input.name).where('active', '=', 1).executeTakeFirst();
    if (now) throw new AppError('CONFLICT', `${input.entity} already has the custom field ${input.name}`, { fields: [{ field: 'name', code: 'unique', message: 'is already used by another record' }] });
    throw err;
  }
}

async function addInTransaction(db: Database, input: CustomFieldInput, def: FieldDef, userId: number | null): Promise<{ row: CustomFieldRow; reactivated: boolean }> {
  return db.kysely.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom(CUSTOM_FIELD_TABLE).selectAll().where('entity', '=', input.entity).where('name', '=', input.name).executeTakeFirst();
    let id: number;
    let reactivated = false;
    if (existing) {
      const old = decode(existing);
      if (old.active) throw new AppError('CONFLICT', `${input.entity} already has the custom field ${input.name}`, { fields: [{ field: 'name', code: 'unique', message: 'is already used by another record' }] });
      if (db.adapter.columnType(fieldDefOf(old)) !== db.adapter.columnType(def)) {
        throw new AppError('VALIDATION_FAILED', `${input.name} was a ${old.type} field; its column and data keep that type, so add it again as ${old.type} or choose another name`,
          { fields: [{ field: 'type', code: 'custom_field_type', message: `must stay ${old.type}`, params: { type: old.type } }] });
      }
      await trx.updateTable(CUSTOM_FIELD_TABLE).set({ type: input.type, label: JSON.stringify(input.label), required: input.required ? 1 : 0, options: input.options ? JSON.stringify(input.options) : null, active: 1 })
        .where('id', '=', old.id).execute();
      id = old.id;
      reactivated = true;
    } else {
      const columns = (await trx.introspection.getTables()).find((t) => t.name === input.entity)?.columns.map((c) => c.name) ?? [];
      // a column left by a field a schema file once had: its data has another meaning, so it is not adopted
      if (columns.includes(input.name)) {
        throw new AppError('CONFLICT', `The table ${input.entity} already has a column ${input.name} that no custom field owns; choose another name`, { fields: [{ field: 'name', code: 'unique', message: 'is already used by another record' }] });
      }
      await trx.schema.alterTable(input.entity).addColumn(input.name, sql.raw(db.adapter.columnType(def))).execute();
      const inserted = await trx.insertInto(CUSTOM_FIELD_TABLE).values({
        entity: input.entity, name: input.name, type: input.type, label: JSON.stringify(input.label), required: input.required ? 1 : 0,
        options: input.options ? JSON.stringify(input.options) : null, active: 1, created_at: new Date().toISOString(), created_by: userId,
      }).returning('id').executeTakeFirstOrThrow();
      id = Number(inserted.id);
    }
    await bumpVersion(trx);
    const row = await trx.selectFrom(CUSTOM_FIELD_TABLE).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return { row: decode(row), reactivated };
  });
}

/** Hides a custom field: it leaves the schema (API, forms, exports), its column and data stay, as schema sync never drops a column. */
export async function removeCustomField(db: Database, id: number): Promise<CustomFieldRow> {
  return db.kysely.transaction().execute(async (trx) => {
    const row = await trx.selectFrom(CUSTOM_FIELD_TABLE).selectAll().where('id', '=', id).where('active', '=', 1).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', `There is no active custom field ${id}`, undefined, { entity: { th: 'ฟิลด์ที่เพิ่มเอง', en: 'Custom field' }, id });
    await trx.updateTable(CUSTOM_FIELD_TABLE).set({ active: 0 }).where('id', '=', id).execute();
    await bumpVersion(trx);
    return { ...decode(row), active: false };
  });
}

/**
 * Adds the columns of these custom fields (active or removed: a removed one keeps its data)
 * where the table lacks them. The SQLite → PostgreSQL migration calls it with the source's
 * custom fields, so their columns exist before the rows are copied.
 */
export async function ensureCustomColumns(db: Database, rows: Pick<CustomFieldRow, 'entity' | 'name' | 'type' | 'label' | 'required' | 'options'>[]): Promise<string[]> {
  const added: string[] = [];
  const tables = new Map((await db.kysely.introspection.getTables()).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  for (const r of rows) {
    const cols = tables.get(r.entity);
    if (!cols || cols.has(r.name) || !CUSTOM_FIELD_NAME.test(r.name) || !(CUSTOM_FIELD_TYPES as readonly string[]).includes(r.type)) continue;
    await db.kysely.schema.alterTable(r.entity).addColumn(r.name, sql.raw(db.adapter.columnType(fieldDefOf(r)))).execute();
    cols.add(r.name);
    added.push(`${r.entity}.${r.name}`);
  }
  return added;
}

/** The custom fields stored in a SQLite file opened read-only (none when the file predates them). */
export function customFieldsOfSqlite(raw: { prepare(sql: string): { all(): unknown[] } }): CustomFieldRow[] {
  const has = raw.prepare("select name from sqlite_master where type = 'table' and name = 'custom_field'").all();
  if (has.length === 0) return [];
  return (raw.prepare('select * from custom_field').all() as Record<string, unknown>[]).map(decode);
}

/** The custom fields a backup holds (its custom_field table), read through every table as the loader would. */
export async function customFieldsOfBackup(source: { tables(): AsyncIterable<{ name: string; columns: string[]; rows(): AsyncIterable<unknown[]> }> }): Promise<CustomFieldRow[]> {
  const out: CustomFieldRow[] = [];
  for await (const st of source.tables()) {
    for await (const r of st.rows()) {
      if (st.name === CUSTOM_FIELD_TABLE) out.push(decode(Object.fromEntries(st.columns.map((c, i) => [c, r[i]]))));
    }
  }
  return out;
}
