import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { ListQuery } from '../crud/list-query.ts';
import { AppError } from '../errors/app-error.ts';

const ALL: Omit<ListQuery, 'sort'> = { filter: null, limit: 10_000, offset: 0, page: 1, search: null, fields: null, withTotal: false };
const MAX_EXCEPT = 10_000;

/** `except_product_ids=[1,2]`: a JSON list of product ids, or nothing. */
export function parseExceptIds(raw: unknown): number[] {
  if (raw === undefined || raw === '') return [];
  if (typeof raw !== 'string') throw new AppError('INVALID_QUERY', 'except_product_ids is given once, as a JSON list: [1,2]');
  let v: unknown;
  try { v = JSON.parse(raw); } catch { throw new AppError('INVALID_QUERY', 'except_product_ids must be a JSON list of product ids: [1,2]'); }
  if (!Array.isArray(v) || v.length > MAX_EXCEPT || !v.every((n) => Number.isSafeInteger(n) && (n as number) > 0)) {
    throw new AppError('INVALID_QUERY', `except_product_ids must be a JSON list of at most ${MAX_EXCEPT} positive whole numbers: [1,2]`);
  }
  return v as number[];
}

/**
 * GET /api/product/attribute/list: every active attribute with its active options, and for
 * each option the ids of the live products that carry it, leaving out except_product_ids
 * (the products a picker has already chosen). Needs view on product and on product_attribute.
 */
export function registerAttributeListRoute(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  // the product's attribute lines (`"holds": "productAttributes"`): their parent is the product, their links the attributes and options
  const values = service.registry.holder('productAttributes');
  if (!values) return;
  const product = values.parent!;
  const attributes = service.registry.heldLink('productAttributes', 'attribute_id');
  const optionsOf = service.registry.heldLink('productAttributes', 'option_id');
  app.get(`/api/${product.entity}/attribute/list`, {
    schema: {
      tags: [attributes],
      summary: 'Attributes with their options and the products that carry each option',
      querystring: { type: 'object', properties: { except_product_ids: { type: 'string', description: 'JSON list of product ids to leave out: [1,2]' } } },
    },
  }, async (request) => {
    const ctx = contextOf(request);
    const query = request.query as Record<string, unknown>;
    for (const key of Object.keys(query)) if (key !== 'except_product_ids') throw new AppError('INVALID_QUERY', `Unknown query parameter "${key}"; only except_product_ids is accepted`);
    const except = parseExceptIds(query.except_product_ids);
    service.policy.assertAllowed(ctx, service.entity(product.entity), 'read');
    const attrs = await service.list(attributes, { ...ALL, sort: [{ path: ['sort_order'], desc: false }, { path: ['code'], desc: false }] }, ctx);
    const options = await service.list(optionsOf, { ...ALL, sort: [{ path: ['sort_order'], desc: false }, { path: ['code'], desc: false }] }, ctx);
    let q = service.db.kysely.selectFrom(`${values.name} as v`)
      .innerJoin(`${product.entity} as p`, 'p.id', `v.${product.field}`)
      .select(['v.option_id as option_id', `v.${product.field} as product_id`])
      .where('p.is_deleted', '=', 0)
      .orderBy('v.product_id');
    if (except.length) q = q.where('v.product_id', 'not in', except);
    const byOption = new Map<number, number[]>();
    for (const r of await q.execute()) {
      const list = byOption.get(Number(r.option_id)) ?? [];
      list.push(Number(r.product_id));
      byOption.set(Number(r.option_id), list);
    }
    const data = attrs.rows.filter((a) => a.is_active !== false).map((a) => ({
      id: a.id, code: a.code, name_th: a.name_th, name_en: a.name_en ?? null, kind: a.kind, sort_order: a.sort_order,
      options: options.rows.filter((o) => o.attribute_id === a.id && o.is_active !== false).map((o) => ({
        id: o.id, code: o.code, name_th: o.name_th, name_en: o.name_en ?? null, sort_order: o.sort_order,
        product_ids: byOption.get(Number(o.id)) ?? [],
      })),
    }));
    return { success: true, data, meta: { except_product_ids: except } };
  });
}
