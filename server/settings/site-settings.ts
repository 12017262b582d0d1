import type { Kysely } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { enablingSettings, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { fromDb } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import { readSingleRowOnce } from '../crud/single-row-reads.ts';

export type SiteSettings = Record<string, unknown>;

/**
 * The site settings row (a singleton) decoded, with schema defaults for what
 * is unset. Read inside the caller's transaction, so a rule judged during a
 * write sees the settings as they are at that moment. Not cached across
 * requests: settings change rarely, but an instance must never act on a stale switch.
 */
export function siteSettings(k: Kysely<any>, registry: SchemaRegistry): Promise<SiteSettings> {
  if (!k.isTransaction) return readSiteSettings(k, registry);
  // once per transaction; a write of the settings in that transaction forgets it (crud/single-row-reads.ts)
  const entity = registry.siteSettings();
  if (!entity) return Promise.resolve({});
  return readSingleRowOnce(k, entity.name, () => readSiteSettings(k, registry));
}

async function readSiteSettings(k: Kysely<any>, registry: SchemaRegistry): Promise<SiteSettings> {
  // the one singleton with `siteSettings: true` (docs/schema-format.md): found by its key, never by name
  const entity = registry.siteSettings();
  if (!entity) return {};
  const row = await k.selectFrom(entity.name).selectAll().orderBy('id').limit(1).executeTakeFirst();
  const out: SiteSettings = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    const v = row && row[name] !== null && row[name] !== undefined ? fromDb(f, row[name]) : f.default ?? null;
    out[name] = v;
  }
  return out;
}

export const flagOn = (s: SiteSettings, name: string): boolean => s[name] === true || s[name] === 1;

/** Is the entity switched on (schema key `enabledBy`: a boolean site setting, or several that must all be on)? */
export function entityEnabled(entity: EntitySchema, s: SiteSettings): boolean {
  return enablingSettings(entity).every((name) => flagOn(s, name));
}

/** FEATURE_DISABLED naming the setting that is off (the first of them, when several are). */
export function featureDisabled(entity: EntitySchema, s: SiteSettings = {}): AppError {
  const all = enablingSettings(entity);
  const setting = all.find((name) => !flagOn(s, name)) ?? all[0]!;
  return new AppError('FEATURE_DISABLED', `${entity.labelPlural?.en ?? entity.label.en} are switched off on this site (setting ${setting}); an administrator can switch them on in the site settings`, { setting }, { feature: entity.label.th, setting });
}
