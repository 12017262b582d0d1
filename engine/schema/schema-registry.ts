import type { EntitySchema } from './schema-types.ts';
import { applyOverrides, type SchemaOverride } from './schema-overlay.ts';

/**
 * Holds the file schemas and serves them merged with runtime overrides.
 * The merged view is cached and rebuilt only when the override version moves,
 * so every request can ask for an entity without re-merging.
 */
export class SchemaRegistry {
  private readonly base: Map<string, EntitySchema>;
  private merged = new Map<string, EntitySchema>();
  private overrides: readonly SchemaOverride[] = [];
  private currentVersion = 0;

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
    this.overrides = overrides;
    this.currentVersion = version;
    this.rebuild();
  }

  private rebuild(): void {
    const next = new Map<string, EntitySchema>();
    for (const [name, e] of this.base) next.set(name, applyOverrides(e, this.overrides));
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
}
