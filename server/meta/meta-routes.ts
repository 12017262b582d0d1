import { etagOnSend } from '../http/etag.ts';
import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { AppError } from '../errors/app-error.ts';

export interface EntitySummary {
  name: string;
  label: EntitySchema['label'];
  labelPlural?: EntitySchema['label'];
  kind: EntitySchema['kind'];
  menuKey: string;
  menuGroup?: string;
  icon?: string;
  /** What it holds for the engine (`holds`), so the web finds e.g. the accounts' entity without naming it. */
  holds?: EntitySchema['holds'];
  /** The entity whose ids an account's allowances list: its inventories (`access.inventoryField: "id"`) or companies (`access.companyField: "id"`). */
  scope?: 'inventories' | 'companies';
  /** Documents are made out to it (`party`: customers, suppliers). */
  party?: true;
}

const scopeOf = (e: EntitySchema): EntitySummary['scope'] =>
  (e.access?.inventoryField === 'id' ? 'inventories' : e.access?.companyField === 'id' ? 'companies' : undefined);

/**
 * The merged (file + runtime overrides) schemas that the web renderer builds
 * screens from. `version` moves when overrides change, so clients can cache.
 */
export function registerMetaRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf, visible: (ctx: ReturnType<ContextOf>, e: EntitySchema) => boolean = () => true): void {
  app.get('/api/meta/entities', async (request) => {
    const ctx = contextOf(request);
    const data: EntitySummary[] = service.registry.all()
      .filter((e) => visible(ctx, e))
      .map((e) => ({ name: e.name, label: e.label, labelPlural: e.labelPlural, kind: e.kind, menuKey: e.menuKey ?? e.name, menuGroup: e.menuGroup, icon: e.icon, holds: e.holds, scope: scopeOf(e), party: e.party }));
    // screens that are built (have a schema), visible or not: the web says "no access" for these and
    // "not available yet" only for screens that really are not built; route names are public anyway
    const built = service.registry.all().filter((e) => e.kind !== 'lines').map((e) => e.name);
    return { success: true, data, meta: { version: service.registry.version, built } };
  });

  app.get<{ Params: { name: string } }>('/api/meta/entities/:name', { onSend: etagOnSend }, async (request) => {
    const ctx = contextOf(request);
    const entity = service.registry.get(request.params.name);
    if (!entity || !visible(ctx, entity)) throw new AppError('NOT_FOUND', `There is no entity "${request.params.name}"`);
    const related: Record<string, EntitySchema> = {};
    for (const f of Object.values(entity.fields)) {
      if (f.type === 'lines' || f.type === 'link') {
        const r = service.registry.get(f.entity!);
        if (r && r.name !== entity.name) related[r.name] = r;
      }
    }
    // which related entities the caller may read, so screens show names only where the server will answer
    const readable = Object.values(related).filter((r) => visible(ctx, r)).map((r) => r.name);
    return { success: true, data: { entity, related, readable }, meta: { version: service.registry.version } };
  });
}
