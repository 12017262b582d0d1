import { takeMissingSnapshots } from './stock-snapshots.ts';
import { businessTodayNow } from './business-days.ts';
import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import { registerMovementRoutes } from './stock-movements.ts';
import { registerImportRoutes } from '../imports/import-routes.ts';
import type { ImportJobStore } from '../imports/import-jobs.ts';
import { GROUP_BY, stockBalance, type GroupBy } from './stock-balance.ts';

/** The permission key whose `view` flag reads balances (a menu key of its own: balances are not one entity's rows). */
export const STOCK_BALANCE_KEY = 'stock_balance';
const PARAMS = new Set(['product_id', 'inventory_id', 'as_of', 'group_by']);

function id(raw: Record<string, unknown>, key: string): number | null {
  const v = raw[key];
  if (v === undefined || v === '') return null;
  const n = typeof v === 'string' ? parseRecordId(v) : null;
  if (n === null) throw new AppError('INVALID_QUERY', `"${key}" must be a record id`);
  return n;
}

/** How often the server looks for a month end that has no ledger snapshot yet. */
const SNAPSHOT_CHECK_MS = 6 * 3600_000;

/** `GET /api/stock/balance`, the movements and the product import, and the month-end snapshots; the listeners (posting, production gate, site settings, asset history) are stock-feature.ts's. */
export function registerStockRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf, importJobs?: ImportJobStore): void {
  // month-end snapshots keep balances as of a past date quick; taken after start and then now and then, never on a request
  const snapshots = () => takeMissingSnapshots(service.db, service.registry.held('stockMovements'), businessTodayNow())
    .then((n) => { if (n) app.log.info({ snapshots: n }, 'stock snapshots taken'); })
    .catch((err: unknown) => app.log.warn({ err: { message: (err as Error).message } }, 'stock snapshots failed'));
  const timer = setInterval(() => void snapshots(), SNAPSHOT_CHECK_MS);
  timer.unref();
  app.addHook('onReady', async () => { setTimeout(() => void snapshots(), 2000).unref(); });
  app.addHook('preClose', async () => clearInterval(timer));
  registerMovementRoutes(app, service, contextOf);
  registerImportRoutes(app, service, contextOf, importJobs);
  app.get('/api/stock/balance', async (request) => {
    const ctx = contextOf(request);
    if (!service.policy.can(ctx, STOCK_BALANCE_KEY, 'view')) throw new AppError('FORBIDDEN', `Your role may not view stock balances (needs view on ${STOCK_BALANCE_KEY})`);
    const raw = (request.query ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(raw)) {
      if (!PARAMS.has(k)) throw new AppError('INVALID_QUERY', `Unknown parameter "${k}"; use ${[...PARAMS].join(', ')}`);
      if (Array.isArray(v)) throw new AppError('INVALID_QUERY', `"${k}" may be given only once`);
    }
    const asOf = raw.as_of === undefined || raw.as_of === '' ? null : String(raw.as_of);
    if (asOf !== null && (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`)))) throw new AppError('INVALID_QUERY', '"as_of" must be a date, YYYY-MM-DD');
    // by product and inventory unless asked otherwise
    const groupBy: GroupBy | null = raw.group_by === undefined ? 'byInventory' : Object.hasOwn(GROUP_BY, String(raw.group_by)) ? GROUP_BY[String(raw.group_by)]! : null;
    if (!groupBy) throw new AppError('INVALID_QUERY', '"group_by" must be product, inventory or lot');
    const data = await stockBalance(service, ctx, { productId: id(raw, 'product_id'), inventoryId: id(raw, 'inventory_id'), asOf, groupBy });
    return { success: true, data };
  });
}
