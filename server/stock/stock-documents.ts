import type { Kysely } from 'kysely';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';
import type { MovementInput } from './stock-ledger.ts';
import { businessDayStart, businessTodayNow } from './business-days.ts';

type Row = Record<string, unknown>;

/**
 * Which documents move stock, and how. Kept here rather than in the schema
 * format while there are only these three; a `document.stock` key is the
 * natural next step when production reports and returns arrive.
 */
export type StockDocKind = 'receipt' | 'delivery' | 'transfer';
export const STOCK_DOCUMENTS: Record<string, StockDocKind> = {
  goods_receipt: 'receipt',
  delivery_order: 'delivery',
  internal_product_transfer: 'transfer',
};

/** Pairs of (inventory field, location field) on the header, and the line location judged against a header inventory. */
export const LOCATION_RULES: Record<StockDocKind, { header: [string, string][]; line: [string, string] | null }> = {
  receipt: { header: [['inventory_id', 'product_location_id']], line: ['inventory_id', 'product_location_id'] },
  delivery: { header: [['inventory_id', 'product_location_id']], line: ['inventory_id', 'product_location_id'] },
  transfer: { header: [['from_inventory_id', 'from_location_id'], ['to_inventory_id', 'to_location_id']], line: null },
};

export const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
export const dateText = (v: unknown): string | null => (v instanceof Date ? v.toISOString().slice(0, 10) : text(v)?.slice(0, 10) ?? null);

/** A document date as the ledger's datetime: the start of that business day (balances and day screens are asked per business day). */
export const dayStart = (date: string): string => businessDayStart(date);

/** The movements a posted stock document writes: one per line, two per transfer line (out of one inventory, into the other). */
export function movementsOf(kind: StockDocKind, entity: string, doc: Row): MovementInput[] {
  const out: MovementInput[] = [];
  const date = dayStart(dateText(doc.doc_date) ?? businessTodayNow());
  for (const [i, line] of ((doc.items as Row[] | undefined) ?? []).entries()) {
    const qty = toScaledInteger(Number(line.qty ?? 0), 4);
    if (qty <= 0) continue;
    const base = {
      productId: Number(line.product_id), lotNo: text(line.lot_no), expiryDate: dateText(line.expiry_date), containerId: num(line.product_container_id), qty, movementDate: date,
      refDoc: text(doc.doc_no), docEntity: entity, docId: Number(doc.id), docLineId: Number(line.id), where: `items.${i}`,
    };
    if (kind === 'receipt' || kind === 'delivery') {
      out.push({
        ...base, direction: kind === 'receipt' ? 'in' : 'out', movementType: kind,
        // a receipt line may name its own inventory where the site allows it (is_select_multi_inventory_gr)
        inventoryId: num(line.inventory_id) ?? Number(doc.inventory_id), locationId: num(line.product_location_id) ?? num(doc.product_location_id),
        unitCost: kind === 'receipt' ? toScaledInteger(Number(line.price ?? 0), 2) : null, allocate: kind === 'delivery',
      });
    } else {
      const leg: MovementInput = { ...base, direction: 'out', movementType: 'transfer', inventoryId: Number(doc.from_inventory_id), locationId: num(doc.from_location_id), unitCost: null, allocate: true };
      out.push(leg, { ...base, direction: 'in', movementType: 'transfer', inventoryId: Number(doc.to_inventory_id), locationId: num(doc.to_location_id), unitCost: null, pairedWith: leg });
    }
  }
  return out;
}

/** A stored datetime as an ISO string (PostgreSQL hands back a Date). */
const instant = (v: unknown): string => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/**
 * The reversing movements of a cancelled document: each of its movements in
 * the other direction, dated the start of the business day of the
 * cancellation (never before the original), so what the ledger said about
 * past days stays as it was. Each carries the value its original moved
 * (`value`, satang; rows from before the column: qty × unit cost): a
 * reversal takes back exactly what its original put in, and puts back
 * exactly what its original took out (the ledger applies the cap of an out
 * that finds less value than it asks; see `writeMovements`).
 */
export async function reversalsOf(trx: Kysely<any>, entity: string, id: number, doc?: Row): Promise<MovementInput[]> {
  const rows = await trx.selectFrom('stock_movement').selectAll().where('doc_entity', '=', entity).where('doc_id', '=', id).orderBy('id').execute();
  // a reversal refused for want of stock names the line as the posting would (items.N)
  const lineIndex = new Map(((doc?.items as Row[] | undefined) ?? []).map((line, i) => [Number(line.id), i]));
  const today = dayStart(businessTodayNow());
  return rows.map((r) => {
    const original = instant(r.movement_date);
    const qty = Number(r.qty);
    return {
      productId: Number(r.product_id), inventoryId: Number(r.inventory_id), locationId: num(r.product_location_id), lotNo: text(r.lot_no), expiryDate: dateText(r.expiry_date), containerId: num(r.product_container_id),
      direction: r.direction === 'in' ? 'out' : 'in', qty, unitCost: num(r.unit_cost), value: storedValue(qty, r.value, r.unit_cost),
      movementType: String(r.movement_type), movementDate: original > today ? original : today,
      refDoc: text(r.ref_doc), docEntity: entity, docId: id, docLineId: num(r.doc_line_id), note: 'reversal',
      where: lineIndex.has(Number(r.doc_line_id)) ? `items.${lineIndex.get(Number(r.doc_line_id))}` : undefined,
    };
  });
}

/** What a stored movement moved, in satang: its `value`, or for a row written before that column, qty × unit cost. */
export function storedValue(qty: number, value: unknown, unitCost: unknown): number {
  if (value !== null && value !== undefined) return Number(value);
  return Math.round((qty * Number(unitCost ?? 0)) / 10_000);
}
