import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../db/dialect-adapter.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { contextOf } from '../auth/authenticator.ts';
import { flagsFor } from '../auth/permission-policy.ts';
import { principalOf } from '../auth/principal.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { AppError } from '../errors/app-error.ts';
import { loadEntityOverrides, refreshOverrides, saveEntityOverrides } from './schema-overrides.ts';
import { describePage, overridesFromBody } from './page-setting-model.ts';
import { fromContract, toContract } from './page-setting-contract.ts';

/** The menu key a role grants for the page-setting screens (view to read, edit to change). */
export const PAGE_SETTING_KEY = 'page_setting';

/**
 * The spec's page settings: runtime overrides of the schema files, per entity.
 * Reading needs view on `page_setting`, changing needs edit on it. A save
 * replaces only that entity's (or that field's) overrides, bumps the override
 * version in the same transaction and reloads this instance's registry at once;
 * the others reload within their 500 ms poll, and each tells its open screens.
 */
export function registerPageSettingRoutes(app: FastifyInstance, db: Database, registry: SchemaRegistry): void {
  const allowed = (request: FastifyRequest, flag: 'view' | 'edit') => {
    const ctx = contextOf(request);
    const p = principalOf(ctx);
    // a request without a principal is the server itself (tests, scripts); the onRequest hook already refused anonymous calls
    if (p && !flagsFor(p, PAGE_SETTING_KEY)[flag]) throw new AppError('FORBIDDEN', flag === 'view' ? 'Your role may not view page settings' : 'Your role may not change page settings');
    return { ctx, p };
  };
  const fileOf = (name: string) => {
    const file = registry.fileSchema(name);
    if (!file) throw new AppError('NOT_FOUND', `There is no page "${name}"`);
    return file;
  };
  const answer = async (name: string) => {
    const overrides = await loadEntityOverrides(db, name);
    return { success: true, data: { ...describePage(fileOf(name), registry.get(name)!, overrides, (n) => registry.get(n)), settings: toContract(registry.get(name)!) }, meta: { version: registry.version } };
  };
  const saved = async (request: FastifyRequest, name: string, message: string, changes?: unknown) => {
    await refreshOverrides(db, registry);
    const { ctx, p } = allowed(request, 'edit');
    await writeAudit(db.kysely, { action: 'page_setting', userId: ctx.userId, username: p?.user.username ?? null, ip: request.ip, entity: name, message, changes })
      .catch((err: unknown) => request.log.error({ err }, 'audit write failed'));
  };

  app.get('/api/page_setting', async (request) => {
    allowed(request, 'view');
    const rows = await db.kysely.selectFrom('schema_override').select(['entity']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('entity').execute();
    const counts = new Map(rows.map((r) => [r.entity as string, Number(r.n)]));
    const data = registry.fileSchemas().map((e) => ({
      name: e.name, label: registry.get(e.name)!.label, kind: e.kind, menuGroup: e.menuGroup ?? null,
      parent: e.parent?.entity ?? null, overrides: counts.get(e.name) ?? 0,
    }));
    return { success: true, data, meta: { version: registry.version } };
  });

  app.get<{ Params: { entity: string } }>('/api/page_setting/:entity', async (request) => {
    allowed(request, 'view');
    return answer(request.params.entity);
  });

  app.put<{ Params: { entity: string } }>('/api/page_setting/:entity', async (request) => {
    allowed(request, 'edit');
    const name = request.params.entity;
    const file = fileOf(name);
    const overrides = overridesFromBody(file, fromContract(file, request.body), (n) => registry.get(n));
    await saveEntityOverrides(db, name, overrides);
    await saved(request, name, `${overrides.length} override(s) saved`, overrides.map((o) => [o.field, o.property, o.value]));
    return answer(name);
  });

  app.delete<{ Params: { entity: string } }>('/api/page_setting/:entity', async (request) => {
    allowed(request, 'edit');
    const name = request.params.entity;
    fileOf(name);
    await saveEntityOverrides(db, name, []);
    await saved(request, name, 'page reset to its schema file');
    return answer(name);
  });

  app.delete<{ Params: { entity: string; field: string } }>('/api/page_setting/:entity/:field', async (request) => {
    allowed(request, 'edit');
    const { entity: name, field } = request.params;
    const file = fileOf(name);
    if (!fieldOf(file, field)) throw new AppError('UNKNOWN_FIELD', `"${field}" is not a field of ${name}`, { fields: [{ field, code: 'unknown_field', message: 'is not a field of this record' }] });
    await saveEntityOverrides(db, name, [], field);
    await saved(request, name, `field ${field} reset to its schema file`);
    return answer(name);
  });
}
