import type { Database } from '../db/dialect-adapter.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { SchemaOverride } from '../../engine/schema/schema-overlay.ts';
import { loadCustomFields } from './custom-fields.ts';
import { bumpVersion, VERSION_KEY } from './schema-version.ts';

/**
 * Runtime overrides live in schema_override (entity, field, property, value as
 * JSON) with a version counter in schema_state. The page-setting routes
 * (page-setting-routes.ts) write here and bump the version; every instance
 * reloads when it sees a newer version.
 */
export async function ensureOverrideTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('schema_override').ifNotExists()
    .addColumn('entity', 'text', (c) => c.notNull())
    .addColumn('field', 'text')
    .addColumn('property', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}

export async function overrideVersion(db: Database): Promise<number> {
  const row = await db.kysely.selectFrom('schema_state').select('value').where('key', '=', VERSION_KEY).executeTakeFirst();
  return row ? Number(row.value) : 0;
}

/** Loads the overrides into the registry when the stored version is newer than the cached one. */
export async function refreshOverrides(db: Database, registry: SchemaRegistry): Promise<boolean> {
  const version = await overrideVersion(db);
  if (version === 0 || version <= registry.version) return false;
  const rows = await db.kysely.selectFrom('schema_override').selectAll().execute();
  const overrides = rows.map((r) => ({ entity: r.entity, field: r.field ?? null, property: r.property, value: JSON.parse(String(r.value)) }) as SchemaOverride);
  // custom fields share the version counter: a newer version reloads them too (server/meta/custom-fields.ts)
  registry.setCustomFields(await loadCustomFields(db));
  registry.setOverrides(overrides, version);
  return true;
}


/**
 * Moves the version without changing the overrides: after a restore has replaced the
 * schema_override rows (schema_state itself is not restored), so every instance reloads them.
 */
export async function bumpOverrideVersion(db: Database): Promise<number> {
  return db.kysely.transaction().execute((trx) => bumpVersion(trx));
}

/** Stores the full override list and bumps the version in one transaction. */
export async function saveOverrides(db: Database, overrides: SchemaOverride[]): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const next = await bumpVersion(trx);
    await trx.deleteFrom('schema_override').execute();
    for (const o of overrides) {
      await trx.insertInto('schema_override').values({ entity: o.entity, field: o.field, property: o.property, value: JSON.stringify(o.value) }).execute();
    }
    return next;
  });
}

/** The stored overrides of one entity (what the page-setting screen edits). */
export async function loadEntityOverrides(db: Database, entity: string): Promise<SchemaOverride[]> {
  const rows = await db.kysely.selectFrom('schema_override').selectAll().where('entity', '=', entity).execute();
  return rows.map((r) => ({ entity: r.entity, field: r.field ?? null, property: r.property, value: JSON.parse(String(r.value)) }) as SchemaOverride);
}

/**
 * Replaces the overrides of one entity, or of one field of it (`field`), and
 * bumps the version in one transaction; other entities' overrides stay as they are.
 */
export async function saveEntityOverrides(db: Database, entity: string, overrides: SchemaOverride[], field?: string): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const next = await bumpVersion(trx);
    let del = trx.deleteFrom('schema_override').where('entity', '=', entity);
    if (field !== undefined) del = del.where('field', '=', field);
    await del.execute();
    for (const o of overrides) {
      await trx.insertInto('schema_override').values({ entity, field: o.field, property: o.property, value: JSON.stringify(o.value) }).execute();
    }
    return next;
  });
}
