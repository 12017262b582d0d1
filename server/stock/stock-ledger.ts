import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * The stock ledger: every change of stock is one `stock_movement` row, and the
 * balance of each key (product, inventory, location, lot, expiry) is kept in
 * `stock_balance`, written in the same transaction. Quantities are decimal(15,4)
 * stored as integers scaled by 10^4; values are satang.
 *
 * An out-movement takes stock with one conditional update
 * (`qty = qty - q WHERE … AND qty >= q`), so two postings that together exceed
 * what is on hand can never both pass, on SQLite and PostgreSQL alike.
 */
export const QTY_SCALE = 10_000;

export async function ensureStockTables(db: Database): Promise<void> {
  await db.kysely.schema.createTable('stock_balance').ifNotExists()
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('inventory_id', 'integer', (c) => c.notNull())
    // 0 and '' stand for "none": a NULL in a primary key would make every such row distinct
    .addColumn('location_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('lot_no', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('expiry_date', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    // the stock's value at moving-average cost, in satang
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_balance_pk', ['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date'])
    .execute();
  await db.kysely.schema.createIndex('stock_balance_inventory').ifNotExists().on('stock_balance').columns(['inventory_id', 'product_id']).execute();
}

export interface StockKey {
  productId: number;
  inventoryId: number;
  locationId: number | null;
  lotNo: string | null;
  expiryDate: string | null;
}

/** One movement to write: `qty` is a positive scaled integer, `unitCost` satang per unit (ins only; outs take the average). */
export interface MovementInput extends StockKey {
  direction: 'in' | 'out';
  qty: number;
  unitCost: number | null;
  movementType: string;
  movementDate: string;
  refDoc: string | null;
  docEntity: string | null;
  docId: number | null;
  docLineId: number | null;
  note?: string | null;
  /** What the refusal names: the document line the movement comes from. */
  where?: string;
  /** A transfer's in-leg names its out-leg, whose cost it carries. */
  pairedWith?: MovementInput;
  /** An out whose line leaves location, lot or expiry open: taken from the matching rows, earliest expiry first. */
  allocate?: boolean;
}

export interface LedgerOptions {
  userId: number | null;
  /** May this inventory go below zero (site setting or the inventory's own flag)? */
  allowNegative(inventoryId: number): Promise<boolean>;
}

const keyWhere = (k: StockKey) => ({
  product_id: k.productId, inventory_id: k.inventoryId, location_id: k.locationId ?? 0, lot_no: k.lotNo ?? '', expiry_date: k.expiryDate ?? '',
});

function whereKey<Q extends { where: (...a: any[]) => Q }>(q: Q, k: StockKey): Q {
  let out = q;
  for (const [col, v] of Object.entries(keyWhere(k))) out = out.where(col, '=', v);
  return out;
}

/** Locks are taken in one order (by key) so two documents touching the same rows cannot deadlock on PostgreSQL. */
export function sortByKey<T extends StockKey>(list: T[]): T[] {
  const k = (m: StockKey) => [m.productId, m.inventoryId, m.locationId ?? 0, m.lotNo ?? '', m.expiryDate ?? ''] as const;
  return [...list].sort((a, b) => {
    const x = k(a); const y = k(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

async function ensureRow(trx: Kysely<any>, k: StockKey): Promise<void> {
  await trx.insertInto('stock_balance').values({ ...keyWhere(k), qty: 0, value: 0 })
    .onConflict((oc) => oc.columns(['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date']).doNothing()).execute();
}

async function shortfall(trx: Kysely<any>, m: MovementInput, known?: number): Promise<AppError> {
  const row = known === undefined ? await whereKey(trx.selectFrom('stock_balance').select('qty'), m).executeTakeFirst() : { qty: known };
  const onHand = Number(row?.qty ?? 0);
  const product = await trx.selectFrom('product').select(['code', 'name_th']).where('id', '=', m.productId).executeTakeFirst();
  const inventory = await trx.selectFrom('inventory').select(['code', 'name']).where('id', '=', m.inventoryId).executeTakeFirst();
  const q = (n: number) => n / QTY_SCALE;
  const lot = m.lotNo ? `, lot ${m.lotNo}` : '';
  return new AppError('INSUFFICIENT_STOCK', `${m.where ? `${m.where}: ` : ''}only ${q(onHand)} of ${product?.code ?? m.productId} are on hand in ${inventory?.code ?? m.inventoryId}${lot}, not ${q(m.qty)} (short by ${q(m.qty - onHand)})`, {
    line: m.where ?? null, product_id: m.productId, product: product?.code ?? null, inventory_id: m.inventoryId, inventory: inventory?.code ?? null,
    location_id: m.locationId, lot_no: m.lotNo, on_hand: q(onHand), asked: q(m.qty), shortfall: q(m.qty - onHand),
  }, { product: product ? `${product.code} ${product.name_th}` : String(m.productId), inventory: inventory ? String(inventory.name) : String(m.inventoryId), shortfall: q(m.qty - onHand) });
}

/** Applies one movement to its balance row; answers the unit cost it moved at (satang). */
async function applyToBalance(trx: Kysely<any>, m: MovementInput, opts: LedgerOptions): Promise<number> {
  if (m.direction === 'in') {
    const cost = m.unitCost ?? 0;
    await ensureRow(trx, m);
    await whereKey(trx.updateTable('stock_balance').set({ qty: sql`qty + ${m.qty}`, value: sql`value + ${Math.round((m.qty * cost) / QTY_SCALE)}` }), m).execute();
    return cost;
  }
  const negative = await opts.allowNegative(m.inventoryId);
  if (negative) await ensureRow(trx, m);
  let q = trx.updateTable('stock_balance').set({ qty: sql`qty - ${m.qty}` });
  q = whereKey(q, m);
  if (!negative) q = q.where(sql<boolean>`qty >= ${m.qty}`);
  // the row stays locked by this transaction until commit, so the value below is computed on what this update saw
  const row = await q.returning(['qty', 'value']).executeTakeFirst();
  if (!row) throw await shortfall(trx, m);
  const before = Number(row.qty) + m.qty;
  const value = Number(row.value);
  const taken = before > 0 ? Math.min(value, Math.round((value * m.qty) / before)) : 0;
  if (taken) await whereKey(trx.updateTable('stock_balance').set({ value: sql`value - ${taken}` }), m).execute();
  return Math.round((taken * QTY_SCALE) / m.qty);
}

/**
 * Splits an out whose line leaves location, lot or expiry open over the
 * balance rows that match what it does name, earliest expiry first (FEFO;
 * rows without an expiry last). The pieces are then taken with the usual
 * conditional update, so a parallel posting that took the same stock first
 * makes this one refused, never negative.
 */
async function allocate(trx: Kysely<any>, m: MovementInput, opts: LedgerOptions, taken: Map<string, number>): Promise<MovementInput[]> {
  let q = trx.selectFrom('stock_balance').select(['location_id', 'lot_no', 'expiry_date', 'qty'])
    .where('product_id', '=', m.productId).where('inventory_id', '=', m.inventoryId).where('qty', '>', 0);
  if (m.locationId !== null) q = q.where('location_id', '=', m.locationId);
  if (m.lotNo !== null) q = q.where('lot_no', '=', m.lotNo);
  if (m.expiryDate !== null) q = q.where('expiry_date', '=', m.expiryDate);
  const rows = await q.orderBy(sql`case when expiry_date = '' then 1 else 0 end`).orderBy('expiry_date').orderBy('lot_no').orderBy('location_id').execute();
  const pieces: MovementInput[] = [];
  let left = m.qty;
  for (const r of rows) {
    if (left <= 0) break;
    // another line of the same document may already have claimed part of this row
    const key = [m.productId, m.inventoryId, r.location_id, r.lot_no, r.expiry_date].join('|');
    const take = Math.min(left, Number(r.qty) - (taken.get(key) ?? 0));
    if (take <= 0) continue;
    taken.set(key, (taken.get(key) ?? 0) + take);
    pieces.push({ ...m, allocate: false, qty: take, locationId: Number(r.location_id) || null, lotNo: String(r.lot_no) || null, expiryDate: String(r.expiry_date) || null });
    left -= take;
  }
  if (left > 0) {
    if (!(await opts.allowNegative(m.inventoryId))) throw await shortfall(trx, { ...m, locationId: m.locationId, lotNo: m.lotNo }, m.qty - left);
    pieces.push({ ...m, allocate: false, qty: left });
  }
  return pieces;
}

/**
 * Writes the movements (in key order) with their balance changes; an out that
 * finds too little refuses the whole transaction with INSUFFICIENT_STOCK.
 * `costOf` lets a transfer's in-leg take the cost its out-leg moved at.
 */
export async function writeMovements(trx: Kysely<any>, asked: MovementInput[], opts: LedgerOptions): Promise<void> {
  const now = new Date().toISOString();
  // open outs become one movement per balance row they take from; a transfer's in-leg follows its out-leg's pieces (same lot and expiry)
  const split = new Map<MovementInput, MovementInput[]>();
  const taken = new Map<string, number>();
  for (const m of asked) if (m.direction === 'out' && m.allocate) split.set(m, await allocate(trx, m, opts, taken));
  const movements = asked.flatMap((m) => {
    if (split.has(m)) return split.get(m)!;
    const out = m.pairedWith && split.get(m.pairedWith);
    return out ? out.map((p) => ({ ...m, qty: p.qty, lotNo: p.lotNo, expiryDate: p.expiryDate, pairedWith: p })) : [m];
  });
  const costs = new Map<MovementInput, number>();
  // outs first: a transfer's in-leg is valued at what its out-leg took
  const ordered = [...sortByKey(movements.filter((m) => m.direction === 'out')), ...sortByKey(movements.filter((m) => m.direction === 'in'))];
  for (const m of ordered) {
    if (m.direction === 'in' && m.unitCost === null && m.pairedWith) m.unitCost = costs.get(m.pairedWith) ?? 0;
    costs.set(m, await applyToBalance(trx, m, opts));
  }
  for (const m of movements) {
    await trx.insertInto('stock_movement').values({
      movement_date: m.movementDate, product_id: m.productId, inventory_id: m.inventoryId, product_location_id: m.locationId,
      direction: m.direction, movement_type: m.movementType, qty: m.qty, unit_cost: costs.get(m) ?? null,
      lot_no: m.lotNo, expiry_date: m.expiryDate, ref_doc: m.refDoc, note: m.note ?? null,
      doc_entity: m.docEntity, doc_id: m.docId, doc_line_id: m.docLineId,
      created_at: now, updated_at: now, created_by: opts.userId, updated_by: opts.userId,
    }).execute();
  }
}

/** Applies a movement that is already stored (a direct adjustment posted to the ledger) to its balance. */
export async function applyStoredMovement(trx: Kysely<any>, m: MovementInput, opts: LedgerOptions): Promise<void> {
  await applyToBalance(trx, m, opts);
}
