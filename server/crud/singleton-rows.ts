import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EntityService } from './entity-service.ts';
import { systemContext } from './access-policy.ts';

/**
 * A `singleton` entity (site settings) is one row that screens open and edit:
 * a fresh start has no such row, so the settings screen showed "not found".
 * Creates it from the schema defaults when the table is empty.
 */
export async function ensureSingletonRows(service: EntityService, registry: SchemaRegistry, log: (m: string) => void = () => undefined): Promise<string[]> {
  const created: string[] = [];
  for (const e of registry.all()) {
    if (e.kind !== 'singleton') continue;
    const existing = await service.db.kysely.selectFrom(e.name).select('id').limit(1).executeTakeFirst();
    if (existing) continue;
    try {
      await service.create(e.name, {}, systemContext);
      created.push(e.name);
    } catch (err) {
      log(`warning: could not create the ${e.name} row from its defaults: ${(err as Error).message}`);
    }
  }
  return created;
}
