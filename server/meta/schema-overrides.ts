import type { Database } from '../db/dialect-adapter.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { SchemaOverride } from '../../engine/schema/schema-overlay.ts';

const VERSION_KEY = 'override_version';

/**
 * Runtime overrides live in schema_override (entity, field, property, value as
 * JSON) with a version counter in schema_state. The page-setting screens of a
 * later issue write here and bump the version; every instance reloads when it
 * sees a newer version.
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
  registry.setOverrides(overrides, version);
  return true;
}

/** Stores the full override list and bumps the version in one transaction. */
export async function saveOverrides(db: Database, overrides: SchemaOverride[]): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('schema_override').execute();
    for (const o of overrides) {
      await trx.insertInto('schema_override').values({ entity: o.entity, field: o.field, property: o.property, value: JSON.stringify(o.value) }).execute();
    }
    const row = await trx.selectFrom('schema_state').select('value').where('key', '=', VERSION_KEY).executeTakeFirst();
    const next = (row ? Number(row.value) : 0) + 1;
    await trx.deleteFrom('schema_state').where('key', '=', VERSION_KEY).execute();
    await trx.insertInto('schema_state').values({ key: VERSION_KEY, value: String(next) }).execute();
    return next;
  });
}
