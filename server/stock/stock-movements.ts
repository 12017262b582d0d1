import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import { businessDayEnd, businessDayOf, businessDayStart } from './business-days.ts';

const PARAMS = new Set(['direction', 'date', 'inventory_id', 'page']);
const FIELDS = ['id', 'movement_date', 'direction', 'movement_type', 'qty', 'unit_cost', 'lot_no', 'expiry_date', 'ref_doc', 'doc_entity', 'doc_id', 'note',
  'product_id', 'product_id.code', 'product_id.name_th', 'product_id.unit', 'inventory_id', 'inventory_id.name'];
const PAGE = 500;


/**
 * `GET /api/stock/movements?direction=in|out&date=YYYY-MM-DD[&inventory_id=][&page=]`:
 * the business day's receiving (in) or dispatch (out) over the ledger, for the
 * /incoming and /outgoing screens. Read through the ledger entity's own list,
 * so its permission (view on stock_movement) and row scope (the caller's
 * inventories) are exactly those of `GET /api/stock_movement`.
 */
export function registerMovementRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  app.get('/api/stock/movements', async (request) => {
    const ctx = contextOf(request);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(raw)) {
      if (!PARAMS.has(k)) throw new AppError('INVALID_QUERY', `Unknown parameter "${k}"; use ${[...PARAMS].join(', ')}`);
      if (Array.isArray(v)) throw new AppError('INVALID_QUERY', `"${k}" may be given only once`);
    }
    const direction = String(raw.direction ?? '');
    if (direction !== 'in' && direction !== 'out') throw new AppError('INVALID_QUERY', '"direction" must be in or out');
    const date = String(raw.date ?? '');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(Date.parse(`${date}T00:00:00Z`))) throw new AppError('INVALID_QUERY', '"date" must be a date, YYYY-MM-DD');
    const filter: Record<string, unknown> = { direction: { _eq: direction }, movement_date: { _gte: businessDayStart(date), _lt: businessDayEnd(date) } };
    if (raw.inventory_id !== undefined && raw.inventory_id !== '') {
      const inv = parseRecordId(String(raw.inventory_id));
      if (inv === null) throw new AppError('INVALID_QUERY', '"inventory_id" must be a record id');
      filter.inventory_id = { _eq: inv };
    }
    const entity = service.entity(service.registry.held('stockMovements'));
    service.policy.assertAllowed(ctx, entity, 'read');
    // a product's or inventory's name is shown only to a caller who may read it there
    const fields = FIELDS.filter((f) => {
      const [link, field] = f.split('.');
      return !field || service.policy.canReadField(ctx, service.entity(entity.fields[link!]!.entity!), field, true);
    });
    const query = service.parseQuery(entity, { filter: JSON.stringify(filter), sort: 'movement_date,id', limit: String(PAGE), page: String(raw.page ?? 1), fields: fields.join(','), meta: 'total_count' }, ctx);
    const result = await service.list(entity.name, query, ctx);
    // the business day each movement belongs to, as the screen shows it (its instant in UTC may fall on the day before)
    const data = result.rows.map((r) => ({ ...r, business_date: businessDayOf(String(r.movement_date)), doc_path: r.doc_entity && r.doc_id ? `/${r.doc_entity}/${r.doc_id}` : null }));
    return { success: true, data, total: result.total ?? data.length };
  });
}
