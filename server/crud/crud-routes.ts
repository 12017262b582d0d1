import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fieldOf, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from './entity-service.ts';
import type { RequestContext } from './access-policy.ts';
import type { RawListQuery } from './list-query.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';

export const MAX_BULK = 500;
/** What Fastify's own JSON answers carry; a reply with its own serializer sets it itself. */
const JSON_TYPE = 'application/json; charset=utf-8';

export type ContextOf = (request: FastifyRequest) => RequestContext;

export const defaultContext: ContextOf = (request) => ({ userId: null, ip: request.ip });

function parseId(entity: EntitySchema, raw: string): number {
  const id = parseRecordId(raw);
  if (id === null) throw new AppError('NOT_FOUND', `${entity.label.en} "${raw}" does not exist: ids are positive whole numbers`, undefined, { entity: entity.label, id: raw });
  return id;
}

function requireJsonObject(body: unknown): void {
  if (body === undefined || body === null) throw new AppError('BAD_REQUEST', 'Send the record as a JSON object in the body');
}

/**
 * Registers the generic routes of one entity. Routes are per entity (not one
 * parametric route) so that each appears in OpenAPI with its own schema and
 * an unknown entity simply has no route.
 */
export function registerEntityRoutes(app: FastifyInstance, service: EntityService, entityName: string, contextOf: ContextOf = defaultContext): void {
  const base = `/api/${entityName}`;
  const entity = () => service.entity(entityName);

  app.get(base, async (request, reply) => {
    const ctx = contextOf(request);
    // one merged schema for the whole request: the check, the query, the read and the answer's writer
    const e = entity();
    // the entity permission answers first, so a forbidden list never reports on its fields
    service.policy.assertAllowed(ctx, e, 'read');
    const query = service.parseQuery(e, request.query as RawListQuery, ctx);
    const meta = (total: number | undefined) => ({ page: query.page, limit: query.limit, offset: query.offset, ...(total !== undefined ? { total_count: total } : {}) });
    // one path on both dialects: rows decoded by the codec (server/db/field-codec.ts), written by a compiled writer (answer-serializers.ts)
    const { rows, total } = await service.list(e, query, ctx);
    reply.serializer(service.answers.list(e, ctx, query.fields)).header('content-type', JSON_TYPE);
    return { success: true, data: rows, meta: meta(total) };
  });

  app.get<{ Params: { id: string }; Querystring: { fields?: string } }>(`${base}/:id`, async (request, reply) => {
    const ctx = contextOf(request);
    const e = entity();
    service.policy.assertAllowed(ctx, e, 'read');
    const id = parseId(e, request.params.id);
    let fields: string[][] | null = null;
    if (request.query.fields !== undefined) {
      // a record's lines may be asked for by name too; they are not columns, so the list protocol's check skips them
      const names = request.query.fields.split(',').map((f) => f.trim()).filter(Boolean);
      const lines = names.filter((n) => fieldOf(e, n)?.type === 'lines');
      const columns = names.filter((n) => !lines.includes(n)).join(',');
      fields = [...(columns ? service.parseQuery(e, { fields: columns }, ctx).fields ?? [] : [['id']]), ...lines.map((n) => [n])];
    }
    const data = await service.get(e, id, ctx, fields);
    reply.serializer(service.answers.record(e, ctx, fields)).header('content-type', JSON_TYPE);
    return { success: true, data };
  });

  // a sale (document.sale) is made by its own route, which prices it and posts it (server/pos/sale-routes.ts)
  if (!entity().document?.sale) {
    app.post(base, async (request, reply) => {
      requireJsonObject(request.body);
      const data = await service.create(entityName, request.body, contextOf(request));
      return reply.status(201).send({ success: true, data });
    });
  }

  /** All-or-nothing creation of up to 500 rows: {"items": [ {...}, ... ]}. */
  if (!entity().document?.sale) app.post<{ Body: { items?: unknown } }>(`${base}/bulk`, async (request, reply) => {
    const items = (request.body as { items?: unknown } | null)?.items;
    if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BULK) {
      throw new AppError('VALIDATION_FAILED', `items must be a list of 1 to ${MAX_BULK} records`, { fields: [{ field: 'items', code: 'type', message: `must be a list of 1 to ${MAX_BULK} records` }] });
    }
    const data = await service.createMany(entityName, items, contextOf(request));
    return reply.status(201).send({ success: true, data });
  });

  for (const method of ['put', 'patch'] as const) {
    app[method]<{ Params: { id: string } }>(`${base}/:id`, async (request) => {
      requireJsonObject(request.body);
      const id = parseId(entity(), request.params.id);
      return { success: true, data: await service.update(entityName, id, request.body, contextOf(request), method === 'put' ? 'replace' : 'patch') };
    });
  }

  if (entity().workflow) {
    /** A workflow action (approve, cancel …): the only way a status changes. */
    app.post<{ Params: { id: string; action: string } }>(`${base}/:id/actions/:action`, async (request) => {
      const id = parseId(entity(), request.params.id);
      return { success: true, data: await service.runAction(entityName, id, request.params.action, request.body ?? {}, contextOf(request)) };
    });
  }

  app.delete<{ Params: { id: string } }>(`${base}/:id`, async (request) => {
    const id = parseId(entity(), request.params.id);
    await service.remove(entityName, id, contextOf(request));
    return { success: true, data: { id } };
  });
}
