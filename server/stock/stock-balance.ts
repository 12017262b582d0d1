import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { compileFilter } from '../crud/filter-compiler.ts';
import { QTY_SCALE } from './stock-ledger.ts';
import { dateText, stockSpecOf } from './stock-documents.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { snapshotOnOrBefore } from './stock-snapshots.ts';
import { businessDayEnd, businessTodayNow } from './business-days.ts';
import { siteSettings } from '../settings/site-settings.ts';
import { stockEntities } from './stock-entities.ts';

/** A balance's rows per product, per product and inventory, or per lot too (`group_by` of GET /api/stock/balance: GROUP_BY). */
export type GroupBy = 'byProduct' | 'byInventory' | 'byLot';
/** The words of `group_by` and what each groups by. */
export const GROUP_BY: Readonly<Record<string, GroupBy>> = { product: 'byProduct', inventory: 'byInventory', lot: 'byLot' };
export interface BalanceQuery {
  productId: number | null;
  inventoryId: number | null;
  asOf: string | null;
  groupBy: GroupBy;
}
export interface BalanceRow {
  product_id: number;
  inventory_id: number | null;
  lot_no?: string | null;
  expiry_date?: string | null;
  qty_on_hand: number;
  qty_booked: number;
  qty_available: number;
}
interface Raw { product_id: unknown; inventory_id: unknown; lot_no?: unknown; expiry_date?: unknown; qty: unknown }

/** The inventories the caller may see, under the same row scope as `GET /api/inventory`; null = all. */
export async function visibleInventories(service: EntityService, ctx: RequestContext): Promise<number[] | null> {
  const inventory = service.entity(stockEntities(service.registry).inventory);
  const scope = service.policy.rowFilter(ctx, inventory);
  if (!scope) return null;
  const cc = { adapter: service.db.adapter, entity: (n: string) => service.registry.get(n), scope: (e: typeof inventory) => service.policy.rowFilter(ctx, e) };
  const rows = await service.db.kysely.selectFrom(`${inventory.name} as t`).select('t.id').where((eb) => compileFilter(eb as never, scope, inventory, 't', cc)).execute();
  return rows.map((r) => Number(r.id));
}

/** On hand per key: now from the balance table, or at the end of a past business day from the last month-end snapshot before it plus the ledger since (no reposting). */
async function onHand(k: Kysely<any>, ledger: string, q: BalanceQuery, allowed: number[] | null): Promise<Raw[]> {
  const cols = q.groupBy === 'byProduct' ? ['product_id'] : q.groupBy === 'byInventory' ? ['product_id', 'inventory_id'] : ['product_id', 'inventory_id', 'lot_no', 'expiry_date'];
  if (q.asOf === null) return sumOf(k, ledger, 'balance', cols, q, allowed);
  const snapshot = await snapshotOnOrBefore(k, q.asOf);
  const moved = await sumOf(k, ledger, 'ledger', cols, q, allowed, snapshot ? businessDayEnd(snapshot) : null);
  if (!snapshot) return moved;
  // the snapshot, plus what moved after it up to the day asked for, key by key
  const merged = new Map<string, Raw>();
  const key = (r: Raw) => cols.map((c) => (c === 'expiry_date' ? dateText(r[c as keyof Raw]) ?? '' : String(r[c as keyof Raw] ?? ''))).join('|');
  for (const r of [...await sumOf(k, ledger, 'snapshot', cols, q, allowed, null, snapshot), ...moved]) {
    const hit = merged.get(key(r));
    if (hit) hit.qty = Number(hit.qty) + Number(r.qty);
    else merged.set(key(r), { ...r, qty: Number(r.qty) });
  }
  return [...merged.values()];
}

/** The same grouped sum over the balance table, the ledger (from `since` up to the end of the business day asked for) or one snapshot. */
async function sumOf(k: Kysely<any>, ledger: string, source: 'balance' | 'ledger' | 'snapshot', cols: string[], q: BalanceQuery, allowed: number[] | null, since: string | null = null, snapshot: string | null = null): Promise<Raw[]> {
  const fromLedger = source === 'ledger';
  // totals per product and inventory answer every grouping but the one by lot
  const perLot = cols.includes('lot_no');
  // one builder type for every table: the query is the same shape over each
  let b = (fromLedger
    ? k.selectFrom(ledger).where('movement_date', '<', businessDayEnd(q.asOf!))
    : k.selectFrom(source === 'balance' ? 'stock_balance' : perLot ? 'stock_snapshot' : 'stock_snapshot_total')) as SelectQueryBuilder<any, any, any>;
  if (fromLedger && since) b = b.where('movement_date', '>=', since);
  if (source === 'snapshot') b = b.where('as_of_date', '=', snapshot);
  if (q.productId !== null) b = b.where('product_id', '=', q.productId);
  if (q.inventoryId !== null) b = b.where('inventory_id', '=', q.inventoryId);
  if (allowed) b = allowed.length ? b.where('inventory_id', 'in', allowed) : b.where(sql<boolean>`1 = 0`);
  const qty = fromLedger ? sql`sum(case when direction = 'in' then qty else -qty end)` : sql`sum(qty)`;
  // the ledger keeps "no lot" as NULL, the balance and snapshot tables as ''
  const group = cols.map((c) => (fromLedger && c === 'lot_no' ? sql`coalesce(lot_no, '')` : sql.ref(c)));
  const select = cols.map((c, i) => sql`${group[i]}`.as(c));
  return (await b.select([...select, qty.as('qty')] as never).groupBy(group as never).execute()) as Raw[];
}

/**
 * Booked quantities, derived rather than stored, so they can never drift:
 * with `so`, what open sales orders (approved, or in progress: partly
 * delivered or billed) still have to deliver (ordered minus what posted
 * deliveries took, per line). Only deliveries count: a tax invoice bills
 * but ships nothing. Closing or cancelling an order releases the rest; a
 * completed order is delivered, so it has nothing left. With `do`,
 * what draft delivery orders hold. An order without an inventory books only
 * at product level.
 */
async function booked(k: Kysely<any>, registry: SchemaRegistry, q: BalanceQuery, mode: string, allowed: number[] | null): Promise<Raw[]> {
  const out: Raw[] = [];
  for (const b of bookingQueries(k, registry, q, mode, allowed)) out.push(...((await b.execute()) as Raw[]));
  return out;
}

/**
 * The booked quantity per product and inventory (qty scaled by 10^4, like the balance tables) as one subquery: the
 * `stock_booked` table of reports (engine/reports/report-loader.ts), the same figures as `GET /api/stock/balance`.
 */
export function bookedTable(k: Kysely<any>, registry: SchemaRegistry, mode: string, alias: string) {
  const all = { productId: null, inventoryId: null, asOf: null, groupBy: 'byInventory' as const };
  const parts = bookingQueries(k, registry, all, mode, null);
  if (!parts.length) return k.selectFrom('stock_balance_total').select([sql`product_id`.as('product_id'), sql`inventory_id`.as('inventory_id'), sql`0`.as('qty')]).where(sql<boolean>`1 = 0`).as(alias);
  const u = parts.slice(1).reduce((acc, b) => acc.unionAll(b), parts[0]!);
  return k.selectFrom(u.as('bk_u')).select(['bk_u.product_id as product_id', 'bk_u.inventory_id as inventory_id', sql`sum(bk_u.qty)`.as('qty')])
    .where('bk_u.inventory_id', 'is not', null).groupBy(['bk_u.product_id', 'bk_u.inventory_id']).as(alias);
}

function bookingQueries(k: Kysely<any>, registry: SchemaRegistry, q: BalanceQuery, mode: string, allowed: number[] | null): SelectQueryBuilder<any, any, any>[] {
  const out: SelectQueryBuilder<any, any, any>[] = [];
  // every document that takes stock out books it (document.stock.direction "out"): its drafts, or the open lines of its `books` source
  for (const doc of registry.all()) {
    const spec = stockSpecOf(doc);
    if (spec?.direction !== 'out') continue;
    let b;
    let inventory: string;
    if (mode === 'do') {
      const lines = linesOf(registry, doc);
      if (!lines) continue;
      b = k.selectFrom(`${lines.entity} as i`).innerJoin(`${doc.name} as d`, 'd.id', `i.${lines.parent}`)
        .where('d.status', '=', 'draft').where('d.is_deleted', '=', 0)
        .select(['i.product_id as product_id', `d.${spec.inventory} as inventory_id`, sql`sum(i.qty)`.as('qty')]);
      inventory = `d.${spec.inventory}`;
      b = narrowed(b, q, allowed, inventory);
    } else {
      const source = spec.books ? registry.get(spec.books.source) : undefined;
      const lines = source ? linesOf(registry, source) : null;
      if (!spec.books || !source || !lines) continue;
      b = k.selectFrom(`${lines.entity} as i`).innerJoin(`${source.name} as d`, 'd.id', `i.${lines.parent}`)
        .leftJoin('document_progress as p', (j) => j.onRef('p.source_line_id', '=', 'i.id').on('p.source_entity', '=', source.name).on('p.target_entity', '=', doc.name))
        .where('d.status', 'in', spec.books.states).where('d.is_deleted', '=', 0)
        .select(['i.product_id as product_id', `d.${spec.books.inventory} as inventory_id`, sql`sum(case when i.qty > coalesce(p.done, 0) then i.qty - coalesce(p.done, 0) else 0 end)`.as('qty')]);
      inventory = `d.${spec.books.inventory}`;
      b = narrowed(b, q, allowed, inventory);
    }
    out.push(b.groupBy(['i.product_id', inventory]));
  }
  return out;
}

/** A document's lines entity and the column that points back to it. */
function linesOf(registry: SchemaRegistry, doc: EntitySchema): { entity: string; parent: string } | null {
  const field = doc.document?.lines ? doc.fields[doc.document.lines] : undefined;
  const child = field?.entity ? registry.get(field.entity) : undefined;
  return child?.parent ? { entity: child.name, parent: child.parent.field } : null;
}

function narrowed<B extends SelectQueryBuilder<any, any, any>>(b: B, q: BalanceQuery, allowed: number[] | null, inventory: string): B {
  let n = b;
  if (q.productId !== null) n = n.where('i.product_id', '=', q.productId) as B;
  if (q.inventoryId !== null) n = n.where(inventory, '=', q.inventoryId) as B;
  if (allowed) n = (allowed.length ? n.where(inventory, 'in', allowed) : n.where(sql<boolean>`1 = 0`)) as B;
  return n;
}

export async function stockBalance(service: EntityService, ctx: RequestContext, q: BalanceQuery): Promise<BalanceRow[]> {
  const k = service.db.kysely;
  const allowed = await visibleInventories(service, ctx);
  if (allowed && q.inventoryId !== null && !allowed.includes(q.inventoryId)) return [];
  const today = businessTodayNow();
  const rows = new Map<string, BalanceRow>();
  const keyOf = (r: Raw) => [r.product_id, q.groupBy === 'byProduct' ? '' : r.inventory_id, r.lot_no ?? '', dateText(r.expiry_date) ?? ''].join('|');
  for (const r of await onHand(k, stockEntities(service.registry).ledger, q, allowed)) {
    const row: BalanceRow = { product_id: Number(r.product_id), inventory_id: q.groupBy === 'byProduct' ? null : Number(r.inventory_id), qty_on_hand: Number(r.qty) / QTY_SCALE, qty_booked: 0, qty_available: 0 };
    if (q.groupBy === 'byLot') { row.lot_no = (r.lot_no as string) || null; row.expiry_date = dateText(r.expiry_date) || null; }
    rows.set(keyOf(r), row);
  }
  // bookings are what is open now: a balance as of a past day shows none; lots are not booked one by one
  if (q.groupBy !== 'byLot' && (q.asOf === null || q.asOf >= today)) {
    const s = await siteSettings(k, service.registry);
    for (const r of await booked(k, service.registry, q, String(s.stock_balance_sub_booked_table_type ?? 'so'), allowed)) {
      if (q.groupBy !== 'byProduct' && (r.inventory_id === null || r.inventory_id === undefined)) continue;
      const key = keyOf(r);
      const row = rows.get(key) ?? { product_id: Number(r.product_id), inventory_id: q.groupBy === 'byProduct' ? null : Number(r.inventory_id), qty_on_hand: 0, qty_booked: 0, qty_available: 0 };
      row.qty_booked += Number(r.qty) / QTY_SCALE;
      rows.set(key, row);
    }
  }
  const out = [...rows.values()];
  for (const r of out) {
    r.qty_on_hand = Number(r.qty_on_hand.toFixed(4));
    r.qty_booked = Number(r.qty_booked.toFixed(4));
    r.qty_available = Number((r.qty_on_hand - r.qty_booked).toFixed(4));
  }
  return out.sort((a, b) => a.product_id - b.product_id || (a.inventory_id ?? 0) - (b.inventory_id ?? 0) || String(a.lot_no ?? '').localeCompare(String(b.lot_no ?? '')));
}
