import type { FastifyInstance } from 'fastify';
import { fieldOf, type EntitySchema, type ListAlias } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from './entity-service.ts';
import type { ContextOf } from './crud-routes.ts';
import type { RawListQuery } from './list-query.ts';

/** A parameter given once, as text. */
function one(raw: RawListQuery, key: string): string | undefined {
  const v = raw[key];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) throw new AppError('INVALID_QUERY', `"${key}" may be given only once`);
  return String(v);
}

/** The JSON value a declared parameter filters its field by; booleans take 0/1 as the spec's calls send them. */
function valueOf(entity: EntitySchema, name: string, field: string, text: string): unknown {
  const def = fieldOf(entity, field);
  if (def?.type === 'boolean') {
    if (text === '1' || text === 'true') return true;
    if (text === '0' || text === 'false') return false;
    throw new AppError('INVALID_QUERY', `"${name}" takes 0 or 1`);
  }
  if (def?.type === 'integer' || def?.type === 'link') {
    if (!/^\d{1,15}$/.test(text)) throw new AppError('INVALID_QUERY', `"${name}" must be a whole number`);
    return Number(text);
  }
  if (def?.type === 'enum' && !def.options?.some((o) => o.value === text)) {
    throw new AppError('INVALID_QUERY', `"${name}" must be one of ${def.options!.map((o) => o.value).join(', ')}`);
  }
  return text;
}

/**
 * Turns an alias's own parameters into the list protocol: each declared parameter becomes an `_eq` condition
 * AND-ed with the caller's `filter`, so it is checked (field rights included) exactly as a filter would be.
 */
export function aliasQuery(entity: EntitySchema, alias: ListAlias, raw: RawListQuery): { raw: RawListQuery; deleted: boolean } {
  const rest: RawListQuery = { ...raw };
  let deleted = false;
  if (alias.deletedParam) {
    const d = one(raw, alias.deletedParam);
    delete rest[alias.deletedParam];
    if (d !== undefined && d !== '0' && d !== '1') throw new AppError('INVALID_QUERY', `"${alias.deletedParam}" takes 0 (live rows) or 1 (deleted rows)`);
    deleted = d === '1';
  }
  const conditions: unknown[] = [];
  for (const p of alias.params ?? []) {
    const text = one(raw, p.name) ?? p.default;
    delete rest[p.name];
    if (text === undefined || text === '' || (p.all !== undefined && text === p.all)) continue;
    conditions.push({ [p.field]: { _eq: valueOf(entity, p.name, p.field, text) } });
  }
  const own = one(raw, 'filter');
  if (own) {
    let parsed: unknown;
    try { parsed = JSON.parse(own); } catch { throw new AppError('INVALID_FILTER', 'filter must be JSON, e.g. {"code":{"_eq":"C001"}}'); }
    conditions.push(parsed);
  }
  if (conditions.length) rest.filter = JSON.stringify(conditions.length === 1 ? conditions[0] : { _and: conditions });
  return { raw: rest, deleted };
}

/**
 * GET /api/{alias.path} for every alias an entity declares (`listAliases`): the entity's list, with the
 * alias's parameters besides the list protocol's. The spec's `GET /api/sales_channel_pos?is_deleted=0&type=all`
 * and `GET /api/promotion/list?is_delete=0&is_publish=1` are two such declarations, not code.
 */
export function registerListAliasRoutes(app: FastifyInstance, service: EntityService, entityName: string, contextOf: ContextOf): void {
  for (const alias of service.entity(entityName).listAliases ?? []) {
    app.get(`/api/${alias.path}`, {
      schema: {
        tags: [entityName],
        summary: `List of ${entityName} with the parameters ${[alias.deletedParam, ...(alias.params ?? []).map((p) => p.name)].filter(Boolean).join(', ')}`,
      },
    }, async (request) => {
      const ctx = contextOf(request);
      const entity = service.entity(entityName);
      service.policy.assertAllowed(ctx, entity, 'read');
      const { raw, deleted } = aliasQuery(entity, alias, request.query as RawListQuery);
      const query = { ...service.parseQuery(entity, raw, ctx), deleted };
      const { rows, total } = await service.list(entityName, query, ctx);
      return { success: true, data: rows, meta: { page: query.page, limit: query.limit, offset: query.offset, ...(total !== undefined ? { total_count: total } : {}) } };
    });
  }
}
