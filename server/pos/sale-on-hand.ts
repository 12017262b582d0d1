import type { FastifyInstance } from 'fastify';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { siteSettings } from '../settings/site-settings.ts';

/** Quantities in `stock_balance_total` are scaled by 10^4 (server/stock/balance-totals.ts). */
const QTY_SCALE = 10_000;
const MAX_PRODUCTS = 200;

/**
 * GET /api/{sale}/on-hand?{terminal}=N&product_id=1,2 (issue 51 §2: stock is checked when the item is scanned, not
 * after the customer has paid): what the terminal's inventory holds of those products, and whether it may go
 * below zero (the site's or the inventory's `is_allow_negative_stock`). Needs what selling needs (create on the
 * sale entity) and a terminal the caller may read, so a cashier without the stock screens can still be told
 * "only 2 left". The sale route judges the stock again in its transaction; this answer is advice for the screen.
 */
export function registerOnHandRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all().filter((e: EntitySchema) => e.document?.sale)) {
    const sale = entity.document!.sale!;
    app.get(`/api/${entity.name}/on-hand`, async (request) => {
      const ctx = contextOf(request);
      const e = service.entity(entity.name);
      service.policy.assertAllowed(ctx, e, 'create');
      const query = request.query as Record<string, string | undefined>;
      const terminalId = parseRecordId(query[sale.terminal]);
      const ids = String(query.product_id ?? '').split(',').filter(Boolean).map((x) => parseRecordId(x));
      if (terminalId === null || !ids.length || ids.length > MAX_PRODUCTS || ids.some((x) => x === null)) {
        throw new AppError('INVALID_QUERY', `Send ${sale.terminal}=<terminal id> and product_id=<ids, comma-separated, at most ${MAX_PRODUCTS}>`);
      }
      const terminalEntity = fieldOf(e, sale.terminal)!.entity!;
      // a terminal the caller may not read answers 404, as its own record would
      const terminal = await service.get(terminalEntity, terminalId, ctx);
      const inventoryId = terminal.inventory_id === null || terminal.inventory_id === undefined ? null : Number(terminal.inventory_id);
      const held = new Map<number, number>();
      let negativeAllowed = false;
      if (inventoryId !== null) {
        const rows = await service.db.kysely.selectFrom('stock_balance_total').select(['product_id', 'qty'])
          .where('inventory_id', '=', inventoryId).where('product_id', 'in', ids as number[]).execute();
        for (const r of rows) held.set(Number(r.product_id), Number(r.qty) / QTY_SCALE);
        const inv = await service.db.kysely.selectFrom(service.registry.heldLink('stockMovements', 'inventory_id')).select('is_allow_negative_stock').where('id', '=', inventoryId).executeTakeFirst();
        const site = await siteSettings(service.db.kysely, service.registry);
        negativeAllowed = [site.is_allow_negative_stock, inv?.is_allow_negative_stock].some((v) => v === true || Number(v) === 1);
      }
      return { success: true, data: (ids as number[]).map((id) => ({ product_id: id, qty: held.get(id) ?? 0 })), meta: { inventory_id: inventoryId, negative_allowed: negativeAllowed } };
    });
  }
}
