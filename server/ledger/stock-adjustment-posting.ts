import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { isEmpty } from '../crud/record-values.ts';
import { businessDayOf } from '../stock/business-days.ts';
import { accountOfRole, roleAccounts, writeEntry } from './journal-writer.ts';

/**
 * The stock ledger (`"holds": "stockMovements"`, whose own rows written straight to it, with no document, are stock
 * adjustments) and the inventories its `inventory_id` links to (whose company's books an adjustment posts to).
 */
export function adjustmentTables(registry: SchemaRegistry): { ledger: string; inventory: string } {
  return { ledger: registry.held('stockMovements'), inventory: registry.heldLink('stockMovements', 'inventory_id') };
}

/**
 * A stock adjustment (a movement posted straight to the stock ledger, not by a document) moves the inventory
 * account by the value the stock ledger stored: in, Dr `inventory` / Cr `stock_adjustment`; out, the other way.
 * In the inventory's company's books, dated the movement's business day. Answers whether it wrote an entry.
 */
export async function postStockAdjustment(trx: Kysely<any>, service: EntityService, id: number, opts: { history?: boolean } = {}): Promise<boolean> {
  const { ledger, inventory: inventories } = adjustmentTables(service.registry);
  const m = await trx.selectFrom(ledger).selectAll().where('id', '=', id).executeTakeFirst();
  if (!m || !isEmpty(m.doc_entity)) return false;
  const inv = await trx.selectFrom(inventories).select('your_company_id').where('id', '=', Number(m.inventory_id)).executeTakeFirst();
  const value = Number(m.value ?? 0);
  if (!inv || isEmpty(inv.your_company_id) || !value) return false;
  const roles = await roleAccounts(trx, service);
  const inventory = accountOfRole(roles, 'inventory');
  const adjustment = accountOfRole(roles, 'stock_adjustment');
  const [debit, credit] = m.direction === 'in' ? [inventory, adjustment] : [adjustment, inventory];
  const no = isEmpty(m.ref_doc) ? `#${id}` : String(m.ref_doc);
  await writeEntry(trx, service, {
    companyId: Number(inv.your_company_id), date: businessDayOf(String(m.movement_date)), journal: 'general', sourceEntity: ledger, sourceId: id, sourceDocNo: no,
    memo: `ปรับปรุงสินค้า ${no}`, lines: [{ accountId: debit, debit: value, credit: 0 }, { accountId: credit, debit: 0, credit: value }],
  }, opts);
  return true;
}

/** After the stock ledger stored the movement's value (its own last step), the adjustment's entry. */
export function installStockAdjustmentPosting(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action !== 'create' || !e.after || !isEmpty(e.after.doc_entity)) return;
    await service.beforeCommit(trx, async () => { await postStockAdjustment(trx, service, e.id); });
  }, (entity) => entity.holds === 'stockMovements');
}
