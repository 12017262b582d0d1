import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { createAjv, createEntityValidator, type EntityValidator } from '../../engine/validation/entity-validator.ts';
import type { WriteMode } from '../../engine/validation/entity-json-schema.ts';

/** Compiled validators per entity and mode, dropped when runtime overrides move the registry version. */
export class ValidatorCache {
  private readonly ajv = createAjv();
  private cache = new Map<string, EntityValidator>();
  private version = -1;

  constructor(private readonly registry: SchemaRegistry) {}

  get(entity: EntitySchema, mode: WriteMode): EntityValidator {
    if (this.version !== this.registry.version) {
      this.cache = new Map();
      this.version = this.registry.version;
    }
    const key = `${entity.name}:${mode}`;
    let v = this.cache.get(key);
    if (!v) {
      v = createEntityValidator(this.ajv, entity, mode, (n) => this.registry.get(n));
      this.cache.set(key, v);
    }
    return v;
  }
}
