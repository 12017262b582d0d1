import { siteSettingsOf, type EntitySchema } from './schema-types.ts';
import { holderIn, linkTarget, missingHolder, type Holding } from './held-entities.ts';
import { applyOverrides, type SchemaOverride } from './schema-overlay.ts';
import { applyCustomFields, type CustomField } from './custom-field-layer.ts';

/** A new override version, and the entities whose overrides differ from the previous one's. */
export interface SchemaChange {
  version: number;
  entities: string[];
}

function changedEntities(before: readonly SchemaOverride[], after: readonly SchemaOverride[]): string[] {
  const byEntity = (list: readonly SchemaOverride[]) => {
    const m = new Map<string, string[]>();
    for (const o of list) m.set(o.entity, [...(m.get(o.entity) ?? []), JSON.stringify([o.field, o.property, o.value])]);
    return new Map([...m].map(([k, v]) => [k, v.sort().join('\n')]));
  };
  const a = byEntity(before);
  const b = byEntity(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((e) => a.get(e) !== b.get(e)).sort();
}

/**
 * Holds the file schemas and serves them merged with runtime overrides.
 * The merged view is cached and rebuilt only when the override version moves,
 * so every request can ask for an entity without re-merging.
 */
export class SchemaRegistry {
  private readonly base: Map<string, EntitySchema>;
  private merged = new Map<string, EntitySchema>();
  private overrides: readonly SchemaOverride[] = [];
  private custom: readonly CustomField[] = [];
  /** Entities whose custom fields changed since the last version, announced with it. */
  private customChanged = new Set<string>();
  private currentVersion = 0;
  private readonly listeners = new Set<(change: SchemaChange) => void>();
  /** Who holds what (`holds`), from the files: overrides never change it. */
  private readonly holders = new Map<Holding, string | undefined>();
  /** The site settings' entity, from the files (null: not looked up yet). */
  private settingsName: string | undefined | null = null;

  constructor(entities: EntitySchema[]) {
    this.base = new Map(entities.map((e) => [e.name, e]));
    this.rebuild();
  }

  get version(): number {
    return this.currentVersion;
  }

  /** Replaces the overrides; a version not newer than the cached one is a no-op. */
  setOverrides(overrides: readonly SchemaOverride[], version: number): void {
    if (version <= this.currentVersion && this.currentVersion !== 0) return;
    const before = this.overrides;
    this.overrides = overrides;
    this.currentVersion = version;
    this.rebuild();
    const change: SchemaChange = { version, entities: [...new Set([...changedEntities(before, overrides), ...this.customChanged])].sort() };
    this.customChanged = new Set();
    for (const fn of this.listeners) fn(change);
  }

  /** Called after every version change (the server tells open screens over their sockets); returns an unsubscribe. */
  onChange(fn: (change: SchemaChange) => void): () => void {
    this.listeners.add(fn);
    return () => { this.listeners.delete(fn); };
  }

  /**
   * Replaces the custom fields (a layer under the overrides). Applied by the next
   * setOverrides, so both move together under one version.
   */
  setCustomFields(custom: readonly CustomField[]): void {
    const key = (list: readonly CustomField[], entity: string) => JSON.stringify(list.filter((c) => c.entity === entity));
    const touched = new Set([...this.custom, ...custom].map((c) => c.entity));
    for (const e of touched) if (key(this.custom, e) !== key(custom, e)) this.customChanged.add(e);
    this.custom = custom;
  }

  /** The custom fields of the current version (server/meta/custom-fields.ts loads them). */
  customFields(): readonly CustomField[] {
    return this.custom;
  }

  private rebuild(): void {
    const next = new Map<string, EntitySchema>();
    for (const [name, e] of this.base) next.set(name, applyOverrides(applyCustomFields(e, this.custom), this.overrides));
    this.merged = next;
  }

  get(name: string): EntitySchema | undefined {
    return this.merged.get(name);
  }

  /** The schema as written in its file, without overrides (what the database is synced from). */
  fileSchema(name: string): EntitySchema | undefined {
    return this.base.get(name);
  }

  all(): EntitySchema[] {
    return [...this.merged.values()];
  }

  fileSchemas(): EntitySchema[] {
    return [...this.base.values()];
  }

  /** The one singleton that holds the site settings (`siteSettings: true`), as merged; undefined in a set without one. */
  siteSettings(): EntitySchema | undefined {
    if (this.settingsName === null) this.settingsName = siteSettingsOf(this.base)?.name;
    return this.settingsName === undefined ? undefined : this.merged.get(this.settingsName);
  }

  /** The entity that holds `what` for the engine (schema key `holds`), as merged; undefined when no schema declares it. */
  holder(what: Holding): EntitySchema | undefined {
    if (!this.holders.has(what)) this.holders.set(what, holderIn(this.base.values(), what)?.name);
    const name = this.holders.get(what);
    return name === undefined ? undefined : this.merged.get(name);
  }

  /** The name of the entity that holds `what`; an error naming the key when no schema declares it (a feature that cannot run). */
  held(what: Holding): string {
    const e = this.holder(what);
    if (!e) throw missingHolder(what);
    return e.name;
  }

  /** The entity a link of the holder of `what` points at (the stock movements' `product_id`: the products). */
  heldLink(what: Holding, field: string): string {
    const e = this.holder(what);
    if (!e) throw missingHolder(what);
    return linkTarget(e, field);
  }
}
