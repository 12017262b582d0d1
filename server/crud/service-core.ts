import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Database } from '../db/dialect-adapter.ts';
import type { AccessPolicy } from './access-policy.ts';

/**
 * What the parts of the generic service (reading, writing, workflow actions, write events) share:
 * the database, the schemas and the access policy. The facade (entity-service.ts) is one; the parts
 * import only this type, so none of them imports another's module at run time through the facade.
 */
export interface ServiceCore {
  readonly db: Database;
  readonly registry: SchemaRegistry;
  readonly policy: AccessPolicy;
  /** The merged schema of an entity; NOT_FOUND for a name no schema file defines. */
  entity(name: string): EntitySchema;
  readonly lookup: (name: string) => EntitySchema;
}
