import type { Kysely } from 'kysely';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { principalOf } from '../auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';
import { writeMovements, type LedgerOptions, type MovementInput } from './stock-ledger.ts';
import { stockEntities } from './stock-entities.ts';
import { unscale } from '../db/field-codec.ts';
import { dateText, locationRulesOf, movementsOf, num, postingInventories, reversalsOf, stockSpecOf, type LocationRules } from './stock-documents.ts';

type Row = Record<string, unknown>;

/** Negative stock only where a setting says so: the site-wide switch, or the inventory's own flag. */
export function ledgerOptions(trx: Kysely<any>, ctx: RequestContext, registry: SchemaRegistry): LedgerOptions {
  const stock = stockEntities(registry);
  return {
    userId: ctx.userId,
    stock,
    async allowNegative(inventoryId) {
      if (flagOn(await siteSettings(trx, registry), 'is_allow_negative_stock')) return true;
      const inv = await trx.selectFrom(stock.inventory).select('is_allow_negative_stock').where('id', '=', inventoryId).executeTakeFirst();
      return Number(inv?.is_allow_negative_stock ?? 0) === 1;
    },
  };
}

/** A location named on a stock document must belong to the inventory it is used with (issue 8's cross-field rule). */
async function checkLocations(trx: Kysely<any>, registry: SchemaRegistry, rules: LocationRules, doc: Row, lineInventory = false): Promise<void> {
  const wanted: { field: string; inventory: number; location: number }[] = [];
  for (const [invField, locField] of rules.header) {
    const location = num(doc[locField]);
    if (location !== null) wanted.push({ field: locField, inventory: Number(doc[invField]), location });
  }
  if (rules.line) {
    for (const [i, line] of ((doc.items as Row[] | undefined) ?? []).entries()) {
      const location = num(line[rules.line[1]]);
      if (location !== null) wanted.push({ field: `items.${i}.${rules.line[1]}`, inventory: (lineInventory ? num(line[rules.line[0]]) : null) ?? Number(doc[rules.line[0]]), location });
    }
  }
  if (!wanted.length) return;
  const rows = await trx.selectFrom(stockEntities(registry).location).select(['id', 'inventory_id', 'code']).where('id', 'in', [...new Set(wanted.map((w) => w.location))]).execute();
  const owner = new Map(rows.map((r) => [Number(r.id), r]));
  const errors: FieldError[] = wanted.filter((w) => Number(owner.get(w.location)?.inventory_id) !== w.inventory)
    .map((w) => ({ field: w.field, code: 'inventory', message: `location ${owner.get(w.location)?.code ?? w.location} is not in inventory ${w.inventory}` }));
  if (errors.length) throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: errors });
}

/**
 * With `is_enable_product_expired` on, stock is tracked by lot and expiry: a
 * receipt line of a product that tracks lots needs its lot number, and one
 * that tracks expiry its expiry date, before the receipt posts (the line is named).
 */
async function checkLots(trx: Kysely<any>, doc: Row, registry: SchemaRegistry): Promise<void> {
  if (!flagOn(await siteSettings(trx, registry), 'is_enable_product_expired')) return;
  const lines = (doc.items as Row[] | undefined) ?? [];
  const ids = [...new Set(lines.map((l) => num(l.product_id)).filter((n): n is number => n !== null))];
  if (!ids.length) return;
  const products = new Map((await trx.selectFrom(stockEntities(registry).product).select(['id', 'code', 'is_track_lot', 'is_track_expiry']).where('id', 'in', ids).execute()).map((r) => [Number(r.id), r]));
  const errors: FieldError[] = [];
  for (const [i, line] of lines.entries()) {
    const p = products.get(Number(line.product_id));
    if (!p) continue;
    if (Number(p.is_track_lot) === 1 && !text(line.lot_no)) errors.push({ field: `items.${i}.lot_no`, code: 'required', message: `is required: product ${p.code} is tracked by lot` });
    if (Number(p.is_track_expiry) === 1 && !dateText(line.expiry_date)) errors.push({ field: `items.${i}.expiry_date`, code: 'required', message: `is required: product ${p.code} is tracked by expiry date` });
  }
  if (errors.length) throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: errors });
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** A transfer receives into its destination: a user limited to some inventories may only send to those. */
function checkDestination(ctx: RequestContext, doc: Row, field: string): void {
  const p = principalOf(ctx);
  if (!p?.userType?.is_limit_inventory_to_access) return;
  const to = Number(doc[field]);
  if (!p.user.inventory_allow.includes(to)) {
    throw new AppError('FORBIDDEN', `You may only use your allowed inventories (${p.user.inventory_allow.join(', ') || 'none'}); ${field} ${to} is not one of them`);
  }
}

/**
 * Posting a stock document writes its movements and balances in the action's
 * transaction (after the document engine counted it against its source, so
 * OVER_PROCESSED is judged first), as that transaction's last step;
 * cancelling a posted one writes reversals the same way.
 * Direct POSTs to the ledger are adjustments held to the same balance rules.
 */
export function installStockPosting(service: EntityService): void {
  // each listener declares the entities it applies to: the stock documents (document.stock), and the
  // movements typed by hand (stock_movement rows made by no document)
  const stockDocument = (entity: Parameters<typeof stockSpecOf>[0]) => !!stockSpecOf(entity);
  service.onAction(async (trx, e) => {
    const spec = stockSpecOf(e.entity)!;
    const d = e.entity.document!;
    if (e.action === (d.postAction ?? 'approve')) {
      // a draft made from an order may not have its inventory yet; posting needs it
      const missing = postingInventories(spec).filter((f) => num(e.after[f]) === null);
      if (missing.length) {
        throw new AppError('VALIDATION_FAILED', missing.map((f) => `${f}: is required to approve`).join('; '), { fields: missing.map((field) => ({ field, code: 'required', message: 'is required to approve' })) });
      }
      if (spec.toInventory) checkDestination(e.ctx, e.after, spec.toInventory);
      await checkLocations(trx, service.registry, locationRulesOf(spec), e.after, spec.lineInventory);
      if (spec.checkLots) await checkLots(trx, e.after, service.registry);
      const movements = movementsOf(spec, e.entity.name, e.after);
      // the balance rows are locked from their first write until commit: written last, other postings of the same products wait less
      await service.beforeCommit(trx, async () => { await writeMovements(trx, movements, ledgerOptions(trx, e.ctx, service.registry)); });
    } else if (e.action === (d.cancelAction ?? 'cancel')) {
      const reversals = await reversalsOf(trx, stockEntities(service.registry).ledger, e.entity.name, e.id, e.after);
      await service.beforeCommit(trx, async () => { await writeMovements(trx, reversals, ledgerOptions(trx, e.ctx, service.registry)); });
    }
  }, stockDocument);
  service.onWrite(async (trx, e) => {
    if (!e.after) return;
    const spec = stockSpecOf(service.registry.get(e.entity))!;
    if (spec.toInventory) checkDestination(e.ctx, e.after, spec.toInventory);
    await checkLocations(trx, service.registry, locationRulesOf(spec), e.after, spec.lineInventory);
  }, stockDocument);
  service.onWrite(async (trx, e) => {
    if (!e.after || e.action !== 'create' || e.after.doc_entity) return;
    const m = e.after;
    await checkLocations(trx, service.registry, { header: [['inventory_id', 'product_location_id']], line: null }, m);
    const movement: MovementInput = {
      productId: Number(m.product_id), inventoryId: Number(m.inventory_id), locationId: num(m.product_location_id),
      lotNo: (m.lot_no as string | null) || null, expiryDate: dateText(m.expiry_date), containerId: num(m.product_container_id), direction: m.direction === 'out' ? 'out' : 'in',
      qty: toScaledInteger(Number(m.qty), 4), unitCost: m.unit_cost === null || m.unit_cost === undefined ? null : toScaledInteger(Number(m.unit_cost), 2),
      movementType: String(m.movement_type ?? 'adjustment'), movementDate: new Date(String(m.movement_date)).toISOString(), refDoc: (m.ref_doc as string | null) || null, docEntity: null, docId: null, docLineId: null,
      storedId: e.id,
    };
    // like a posting's, the balance row is locked last; through the same path, so an out stores what the balance lost
    // (the unit cost sent with it is replaced), and the answer shows what was stored
    await service.beforeCommit(trx, async () => {
      const done = (await writeMovements(trx, [movement], ledgerOptions(trx, e.ctx, service.registry))).get(movement)!;
      m.value = unscale(done.value, 2);
      if (movement.direction === 'out') m.unit_cost = done.unitCost === null ? null : unscale(done.unitCost, 2);
    });
  }, (entity) => entity.holds === 'stockMovements');
}
