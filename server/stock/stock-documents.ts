import type { Kysely } from 'kysely';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { StockSpec } from '../../engine/schema/stock-spec-types.ts';
import type { MovementInput } from './stock-ledger.ts';
import { businessDayStart, businessTodayNow } from './business-days.ts';
import { REVERSAL_NOTE } from './moved-values.ts';

type Row = Record<string, unknown>;

/**
 * Which documents move stock, and how, is each schema's `document.stock`
 * (engine/schema/stock-spec-types.ts, StockSpec): a new stock document is one schema file.
 */
export function stockSpecOf(entity: EntitySchema | undefined): StockSpec | null {
  return entity?.kind === 'document' ? entity.document?.stock ?? null : null;
}

/** Pairs of (inventory field, location field) on the header, and the line location judged against a header inventory. */
export interface LocationRules { header: [string, string][]; line: [string, string] | null }
export function locationRulesOf(spec: StockSpec): LocationRules {
  const header: [string, string][] = [];
  if (spec.location) header.push([spec.inventory, spec.location]);
  if (spec.direction === 'transfer' && spec.toInventory && spec.toLocation) header.push([spec.toInventory, spec.toLocation]);
  return { header, line: spec.direction !== 'transfer' && spec.location ? [spec.inventory, spec.location] : null };
}

/** The header fields posting needs: the inventory, and a transfer's destination. */
export const postingInventories = (spec: StockSpec): string[] => (spec.direction === 'transfer' && spec.toInventory ? [spec.inventory, spec.toInventory] : [spec.inventory]);

export const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const text = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));
export const dateText = (v: unknown): string | null => (v instanceof Date ? v.toISOString().slice(0, 10) : text(v)?.slice(0, 10) ?? null);

/** A document date as the ledger's datetime: the start of that business day (balances and day screens are asked per business day). */
export const dayStart = (date: string): string => businessDayStart(date);

/** The movements a posted stock document writes: one per line, two per transfer line (out of one inventory, into the other). */
export function movementsOf(spec: StockSpec, entity: string, doc: Row): MovementInput[] {
  const out: MovementInput[] = [];
  const date = dayStart(dateText(doc.doc_date) ?? businessTodayNow());
  const movementType = spec.direction === 'in' ? 'receipt' : spec.direction === 'out' ? 'delivery' : 'transfer';
  for (const [i, line] of ((doc.items as Row[] | undefined) ?? []).entries()) {
    const qty = toScaledInteger(Number(line.qty ?? 0), 4);
    if (qty <= 0) continue;
    const base = {
      productId: Number(line.product_id), lotNo: text(line.lot_no), expiryDate: dateText(line.expiry_date), containerId: num(line.product_container_id), qty, movementDate: date,
      refDoc: text(doc.doc_no), docEntity: entity, docId: Number(doc.id), docLineId: Number(line.id), where: `items.${i}`, movementType,
    };
    if (spec.direction !== 'transfer') {
      const loc = spec.location;
      out.push({
        ...base, direction: spec.direction,
        // a line may name its own inventory where the schema lets it (a receipt, where the site allows it: is_select_multi_inventory_gr)
        inventoryId: (spec.lineInventory ? num(line[spec.inventory]) : null) ?? Number(doc[spec.inventory]),
        locationId: loc ? num(line[loc]) ?? num(doc[loc]) : null,
        unitCost: spec.direction === 'in' ? toScaledInteger(Number((spec.unitCost ? line[spec.unitCost] : 0) ?? 0), 2) : null, allocate: spec.direction === 'out',
      });
    } else {
      const at = (f: string | undefined) => (f ? num(doc[f]) : null);
      const leg: MovementInput = { ...base, direction: 'out', inventoryId: Number(doc[spec.inventory]), locationId: at(spec.location), unitCost: null, allocate: true };
      out.push(leg, { ...base, direction: 'in', inventoryId: Number(doc[spec.toInventory!]), locationId: at(spec.toLocation), unitCost: null, pairedWith: leg });
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
export async function reversalsOf(trx: Kysely<any>, ledger: string, entity: string, id: number, doc?: Row): Promise<MovementInput[]> {
  const rows = await trx.selectFrom(ledger).selectAll().where('doc_entity', '=', entity).where('doc_id', '=', id).orderBy('id').execute();
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
      refDoc: text(r.ref_doc), docEntity: entity, docId: id, docLineId: num(r.doc_line_id), note: REVERSAL_NOTE,
      where: lineIndex.has(Number(r.doc_line_id)) ? `items.${lineIndex.get(Number(r.doc_line_id))}` : undefined,
    };
  });
}

/** What a stored movement moved, in satang: its `value`, or for a row written before that column, qty × unit cost. */
export function storedValue(qty: number, value: unknown, unitCost: unknown): number {
  if (value !== null && value !== undefined) return Number(value);
  return Math.round((qty * Number(unitCost ?? 0)) / 10_000);
}
