import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { addKeyColumn } from '../db/dialect-sql.ts';
import { AppError } from '../errors/app-error.ts';
import { inBatches } from '../db/batches.ts';
import { writesRideOneStatement } from '../db/riding-statements.ts';
import { addToBalances, candidatesOf, lockBalances, type Candidate, type Held, type OpenGroup } from './balance-batch.ts';
import { BALANCE_KEY, keyText, withKeyColumns, type StockKey } from './stock-key.ts';
import { addToSnapshots, ensureSnapshotTables, lastSnapshotDate } from './stock-snapshots.ts';
import { businessDayOf } from './business-days.ts';
import { ensureBalanceTotals } from './balance-totals.ts';
import { ensureFirstInDay } from './balance-first-in.ts';
import { ensureDayTablesCurrent } from './day-tables-current.ts';
import { addToMovementDays, ensureMovementDays, movementDayRows } from './movement-days.ts';
import { noteMoved, takeRiders } from './moved-values.ts';
import { stockEntities, type StockEntities } from './stock-entities.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';

/**
 * The stock ledger: every change of stock is one `stock_movement` row, and the
 * balance of each key (product, inventory, location, lot, expiry, container) is
 * kept in `stock_balance`, written in the same transaction. Quantities are
 * decimal(15,4) stored as integers scaled by 10^4; values are satang.
 *
 * Every change goes through one path, `writeMovements` (document postings,
 * reversals and direct adjustments alike): it locks every balance row it
 * touches before it judges them, so two postings that together exceed what
 * is on hand can never both pass, on SQLite and PostgreSQL alike; and each
 * movement stores the value (satang) its balance row gained or lost, so for
 * every key the ledger's value is the balance's value.
 */
export const QTY_SCALE = 10_000;

/**
 * At most this many ledger rows ride in a posting's balance statement (20 parameters each, far below
 * PostgreSQL's 65,535); a larger posting inserts them in statements of their own first.
 */
const RIDER_MOVEMENTS = 1000;

/**
 * A balance table made before containers were part of the key gets the
 * column (0 = none, what every existing row is) and the wider primary key,
 * in one transaction (addKeyColumn: in place, or a copy where the database
 * cannot alter a key; the copy's indexes are made again by ensureStockTables).
 */
async function addContainerToKey(db: Database): Promise<void> {
  if ((await db.adapter.columnNames(db.kysely, 'stock_balance')).includes('container_id')) return;
  await db.kysely.transaction().execute(async (trx) => addKeyColumn(trx, {
    table: 'stock_balance', constraint: 'stock_balance_pk', column: 'container_id', columnDdl: 'integer not null default 0',
    key: ['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date', 'container_id'],
    columns: ['product_id', 'inventory_id', 'location_id', 'lot_no', 'expiry_date', 'qty', 'value'],
    create: (name) => sql`create table ${sql.table(name)} (product_id integer not null, inventory_id integer not null,
      location_id integer not null default 0, lot_no text not null default '', expiry_date text not null default '',
      qty bigint not null default 0, value bigint not null default 0, container_id integer not null default 0,
      constraint stock_balance_pk primary key (product_id, inventory_id, location_id, lot_no, expiry_date, container_id))`,
  }));
}

export async function ensureStockTables(db: Database, registry: SchemaRegistry): Promise<void> {
  const { ledger } = stockEntities(registry);
  await withKeyColumns(db.kysely.schema.createTable('stock_balance').ifNotExists())
    .addColumn('qty', 'bigint', (c) => c.notNull().defaultTo(0))
    // the stock's value at moving-average cost, in satang
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('container_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stock_balance_pk', [...BALANCE_KEY])
    .execute();
  await addContainerToKey(db);
  await ensureFirstInDay(db, ledger);
  await db.kysely.schema.createIndex('stock_balance_inventory').ifNotExists().on('stock_balance').columns(['inventory_id', 'product_id']).execute();
  // the rows with stock in the order a delivery takes them (FEFO): reading the first few of a product needs no sort of all its lots
  await sql`create index if not exists stock_balance_fefo on stock_balance
    (product_id, inventory_id, (case when expiry_date = '' then 1 else 0 end), expiry_date, lot_no, location_id, container_id) where qty > 0`.execute(db.kysely);
  await ensureBalanceTotals(db);
  await ensureMovementDays(db, ledger);
  await ensureDayTablesCurrent(db, ledger);
  await ensureSnapshotTables(db);
}

export type { StockKey } from './stock-key.ts';

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
  /**
   * Satang, for a reversal: an in puts back exactly this (what its original out took); an out
   * takes back this (what its original in put in), never more than its row holds. Otherwise an
   * in adds qty × unit cost and an out takes the row's moving average.
   */
  value?: number | null;
  /** The movement is already in the ledger (a direct adjustment): its cost and value are written onto that row. */
  storedId?: number;
}

/** What a movement moved: the unit cost stored on it (satang per unit, rounded) and its exact value (satang). */
export interface Moved { unitCost: number | null; value: number }

export interface LedgerOptions {
  userId: number | null;
  /** the ledger's table and the entities it links to (stock-entities.ts) */
  stock: StockEntities;
  /** May this inventory go below zero (site setting or the inventory's own flag)? */
  allowNegative(inventoryId: number): Promise<boolean>;
}

/** Locks are taken in one order (by key) so two documents touching the same rows cannot deadlock on PostgreSQL. */
export function sortByKey<T extends StockKey>(list: T[]): T[] {
  const k = (m: StockKey) => [m.productId, m.inventoryId, m.locationId ?? 0, m.lotNo ?? '', m.expiryDate ?? '', m.containerId ?? 0] as const;
  return [...list].sort((a, b) => {
    const x = k(a); const y = k(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return 0;
  });
}

/** The refusal of an out that finds only `onHand` (scaled) where it asks for more. */
async function shortfall(trx: Kysely<any>, stock: StockEntities, m: MovementInput, onHand: number): Promise<AppError> {
  const product = await trx.selectFrom(stock.product).select(['code', 'name_th']).where('id', '=', m.productId).executeTakeFirst();
  const inventory = await trx.selectFrom(stock.inventory).select(['code', 'name']).where('id', '=', m.inventoryId).executeTakeFirst();
  const q = (n: number) => n / QTY_SCALE;
  const lot = m.lotNo ? `, lot ${m.lotNo}` : '';
  return new AppError('INSUFFICIENT_STOCK', `${m.where ? `${m.where}: ` : ''}only ${q(onHand)} of ${product?.code ?? m.productId} are on hand in ${inventory?.code ?? m.inventoryId}${lot}, not ${q(m.qty)} (short by ${q(m.qty - onHand)})`, {
    line: m.where ?? null, product_id: m.productId, product: product?.code ?? null, inventory_id: m.inventoryId, inventory: inventory?.code ?? null,
    location_id: m.locationId, lot_no: m.lotNo, container_id: m.containerId, on_hand: q(onHand), asked: q(m.qty), shortfall: q(m.qty - onHand),
  }, { product: product ? `${product.code} ${product.name_th}` : String(m.productId), inventory: inventory ? String(inventory.name) : String(m.inventoryId), shortfall: q(m.qty - onHand) });
}

/**
 * Splits an out whose line leaves location, lot or expiry open over the
 * balance rows that match what it does name, earliest expiry first (FEFO;
 * rows without an expiry last). `rows` were read without a lock: the pieces
 * are locked and re-checked before anything is written, so a parallel posting
 * that took the same stock first makes this one refused, never negative.
 * Answers the unmet rest instead of pieces for it when `rows` may be only the
 * first of the rows (the caller reads them all and allocates again).
 */
function allocate(m: MovementInput, rows: Candidate[], taken: Map<string, number>): { pieces: MovementInput[]; left: number } {
  const pieces: MovementInput[] = [];
  let left = m.qty;
  for (const r of rows) {
    if (left <= 0) break;
    if ((m.locationId !== null && r.locationId !== m.locationId) || (m.lotNo !== null && r.lotNo !== m.lotNo) || (m.expiryDate !== null && r.expiryDate !== m.expiryDate) || (m.containerId !== null && r.containerId !== m.containerId)) continue;
    // another line of the same document may already have claimed part of this row
    const key = [m.productId, m.inventoryId, r.locationId, r.lotNo, r.expiryDate, r.containerId].join('|');
    const take = Math.min(left, r.qty - (taken.get(key) ?? 0));
    if (take <= 0) continue;
    taken.set(key, (taken.get(key) ?? 0) + take);
    pieces.push({ ...m, allocate: false, qty: take, locationId: r.locationId || null, lotNo: r.lotNo || null, expiryDate: r.expiryDate || null, containerId: r.containerId || null });
    left -= take;
  }
  return { pieces, left };
}

const groupOf = (m: MovementInput): OpenGroup => ({ productId: m.productId, inventoryId: m.inventoryId, locationId: m.locationId, lotNo: m.lotNo, expiryDate: m.expiryDate, containerId: m.containerId });
const groupText = (g: OpenGroup) => JSON.stringify([g.productId, g.inventoryId, g.locationId, g.lotNo, g.expiryDate, g.containerId]);

/**
 * The pieces of every open out, in document order (so lines never count the
 * same stock twice). First from the first few rows of each group: nearly
 * always enough. A line that runs out of a group that was cut short is
 * allocated again from all of its rows; each line walks its group's rows in
 * FEFO order and stops when served, so the answer is what reading every row
 * would give.
 */
async function allocateAll(trx: Kysely<any>, stock: StockEntities, open: MovementInput[], negatives: Map<number, boolean>): Promise<Map<MovementInput, MovementInput[]>> {
  const groups = new Map<string, OpenGroup>();
  for (const m of open) groups.set(groupText(groupOf(m)), groupOf(m));
  const list = [...groups.values()];
  const index = new Map(list.map((g, i) => [groupText(g), i]));
  const perGroup = new Map<number, number>();
  for (const m of open) perGroup.set(index.get(groupText(groupOf(m)))!, (perGroup.get(index.get(groupText(groupOf(m)))!) ?? 0) + 1);
  const limit = 4 + Math.max(...perGroup.values());
  let rows = await candidatesOf(trx, list, limit);
  const whole = new Set<number>();
  for (;;) {
    const split = new Map<MovementInput, MovementInput[]>();
    const taken = new Map<string, number>();
    const more = new Set<number>();
    for (const m of open) {
      const g = index.get(groupText(groupOf(m)))!;
      const { pieces, left } = allocate(m, rows[g]!, taken);
      if (left > 0 && !whole.has(g) && rows[g]!.length >= limit) more.add(g);
      // a refusal is final only when every line before it was served from all the rows it could walk
      else if (left > 0 && !more.size && !negatives.get(m.inventoryId)) throw await shortfall(trx, stock, m, m.qty - left);
      else if (left > 0) pieces.push({ ...m, allocate: false, qty: left });
      split.set(m, pieces);
    }
    if (!more.size) return split;
    const all = await candidatesOf(trx, [...more].map((g) => list[g]!), null);
    [...more].forEach((g, i) => { rows[g] = all[i]!; whole.add(g); });
  }
}

/** Whether each inventory may go below zero, asked once per inventory of the posting. */
async function negativesOf(movements: MovementInput[], opts: LedgerOptions): Promise<Map<number, boolean>> {
  const out = new Map<number, boolean>();
  for (const m of movements) if (m.direction === 'out' && !out.has(m.inventoryId)) out.set(m.inventoryId, await opts.allowNegative(m.inventoryId));
  return out;
}

/**
 * What an out takes from a row holding `qty` (scaled) worth `value` (satang):
 * nothing from a row with no stock (stock that is not there has no value);
 * all of it when it takes the last of the stock (no value is left without
 * stock); else the asked value of a reversal, capped at what the row holds;
 * else its share of the row at moving-average cost.
 */
export function outValue(qty: number, value: number, take: number, asked: number | null | undefined): number {
  if (qty <= 0) return 0;
  if (take >= qty) return value;
  if (asked !== null && asked !== undefined) return Math.max(0, Math.min(asked, value));
  return Math.max(0, Math.min(value, Math.round((value * take) / qty)));
}

const perUnit = (value: number, qty: number) => Math.round((value * QTY_SCALE) / qty);

/**
 * Writes the movements with their balance changes, a fixed handful of
 * statements whatever the number of lines: the open outs are allocated from
 * one read, every balance row the posting touches is locked in key order and
 * read in one statement, the changes are worked out here in the order the
 * ledger has always applied them (outs by key, then ins by key), and written
 * in one statement, the movements in one more. An out that finds too little
 * refuses the whole transaction with INSUFFICIENT_STOCK.
 *
 * The one path of every stock change: each movement stores exactly the value
 * its row gained or lost (`value`), and an out's unit cost is that value per
 * unit, so for every key the ledger adds up to the balance in quantity and in
 * value. A transfer's in-leg receives exactly what its out-leg took. Answers
 * what each asked movement that was not split moved (a direct adjustment's
 * cost and value, for its answer).
 */
export async function writeMovements(trx: Kysely<any>, asked: MovementInput[], opts: LedgerOptions): Promise<Map<MovementInput, Moved>> {
  const moved = new Map<MovementInput, Moved>();
  if (!asked.length) return moved;
  const now = new Date().toISOString();
  const negatives = await negativesOf(asked, opts);
  // open outs become one movement per balance row they take from; a transfer's in-leg follows its out-leg's pieces (same lot and expiry)
  const open = asked.filter((m) => m.direction === 'out' && m.allocate);
  const split = open.length ? await allocateAll(trx, opts.stock, open, negatives) : new Map<MovementInput, MovementInput[]>();
  const movements = asked.flatMap((m) => {
    if (split.has(m)) return split.get(m)!;
    const out = m.pairedWith && split.get(m.pairedWith);
    // the container moves with the goods, like the lot
    return out ? out.map((p) => ({ ...m, qty: p.qty, lotNo: p.lotNo, expiryDate: p.expiryDate, containerId: p.containerId, pairedWith: p })) : [m];
  });
  // outs first: a transfer's in-leg is valued at what its out-leg took
  const ordered = [...sortByKey(movements.filter((m) => m.direction === 'out')), ...sortByKey(movements.filter((m) => m.direction === 'in'))];
  const keys = sortByKey([...new Map(movements.map((m) => [keyText(m), m])).values()]);
  // only an out is judged and valued by what its row holds; a posting of ins alone (a receipt) needs no read of its rows,
  // so they are locked by the write that adds to them, the last statement before commit
  const judged = movements.some((m) => m.direction === 'out' || m.pairedWith);
  const held = judged ? await lockBalances(trx, keys) : new Map(keys.map((k) => [keyText(k), { qty: 0, value: 0 }]));
  const state = new Map([...held].map(([k, h]) => [k, { ...h }]));
  for (const m of ordered) {
    const row = state.get(keyText(m))!;
    if (m.direction === 'in') {
      const paired = m.pairedWith && moved.get(m.pairedWith);
      const value = paired ? paired.value : m.value ?? Math.round((m.qty * (m.unitCost ?? 0)) / QTY_SCALE);
      row.qty += m.qty;
      row.value += value;
      moved.set(m, { unitCost: paired ? paired.unitCost : m.unitCost ?? (m.storedId === undefined ? perUnit(value, m.qty) : null), value });
      continue;
    }
    if (!negatives.get(m.inventoryId) && row.qty < m.qty) throw await shortfall(trx, opts.stock, m, row.qty);
    const value = outValue(row.qty, row.value, m.qty, m.value);
    row.qty -= m.qty;
    row.value -= value;
    moved.set(m, { unitCost: perUnit(value, m.qty), value });
  }
  // the business day of each key's earliest movement in (stock_balance.first_in_day, what aging counts from)
  const firstIn = new Map<string, string>();
  for (const m of movements) {
    if (m.direction !== 'in') continue;
    const d = businessDayOf(m.movementDate);
    const k = keyText(m);
    if (!firstIn.has(k) || d < firstIn.get(k)!) firstIn.set(k, d);
  }
  // a direct adjustment is already in the ledger: it gets what it moved
  for (const m of movements) {
    if (m.storedId === undefined) continue;
    const done = moved.get(m)!;
    await trx.updateTable(opts.stock.ledger).set(m.direction === 'out' ? { unit_cost: done.unitCost, value: done.value } : { value: done.value }).where('id', '=', m.storedId).execute();
  }
  const rows = movements.filter((m) => m.storedId === undefined).map((m) => ({
    movement_date: m.movementDate, product_id: m.productId, inventory_id: m.inventoryId, product_location_id: m.locationId,
    direction: m.direction, movement_type: m.movementType, qty: m.qty, unit_cost: moved.get(m)!.unitCost, value: moved.get(m)!.value,
    lot_no: m.lotNo, expiry_date: m.expiryDate, product_container_id: m.containerId, ref_doc: m.refDoc, note: m.note ?? null,
    doc_entity: m.docEntity, doc_id: m.docId, doc_line_id: m.docLineId,
    created_at: now, updated_at: now, created_by: opts.userId, updated_by: opts.userId,
  }));
  // the day summary the movement dashboards read (a direct adjustment's row too: it gets its value only here)
  const days = movementDayRows(movements.map((m) => ({ movementDate: m.movementDate, inventoryId: m.inventoryId, direction: m.direction, refDoc: m.refDoc, qty: m.qty, value: moved.get(m)!.value })));
  const changes = keys.map((key) => {
    const k = keyText(key);
    return { key, qty: state.get(k)!.qty - held.get(k)!.qty, value: state.get(k)!.value - held.get(k)!.value, firstInDay: firstIn.get(k) ?? null };
  }).filter((c) => c.qty !== 0 || c.value !== 0 || c.firstInDay !== null);
  let written: Map<string, Held>;
  let last: string | null;
  // what each document moved, for the writes that ride with the balances and the listeners that run after these statements (moved-values.ts)
  noteMoved(trx, movements.map((m) => ({ docEntity: m.docEntity, docId: m.docId, direction: m.direction, note: m.note, value: moved.get(m)!.value })));
  if (changes.length) {
    // a posting of more ledger rows than ride in one statement writes them in statements of their own first
    const ride = rows.length <= RIDER_MOVEMENTS;
    if (!ride) for (const batch of inBatches(rows, 21)) await trx.insertInto(opts.stock.ledger).values(batch).execute();
    // the ledger and day rows ride with the balances, written first and read for the newest snapshot date (addToBalances):
    // one round trip on PostgreSQL (issue 35's posting p99), the last before commit; in order on SQLite (runRiding).
    // From then on no snapshot can be taken until this commits (PostgreSQL locks the ledger for a snapshot; SQLite
    // writes one at a time), so a movement dated after the last snapshot — nearly every posting — needs no snapshot update.
    // The balances are written in the same statement as the ledger rows they sum up, or after them: the lock on a
    // row others post to is then held for this and the commit.
    // and a later step's writes offered for these documents (the general ledger's entry: moved-values.ts) ride too
    const riders = writesRideOneStatement(trx) ? takeRiders(trx, movements) : [];
    const named = [];
    for (const r of riders) named.push(...await r.make());
    let reads: Record<string, unknown>;
    ({ written, lastSnapshot: last, named: reads } = await addToBalances(trx, changes, { ledger: opts.stock.ledger, movements: ride ? rows : [], days, named }));
    for (const r of riders) await r.rode(reads);
  } else {
    // nothing changes a balance (the movements net to nothing): the ledger and day rows alone
    for (const batch of inBatches(rows, 21)) await trx.insertInto(opts.stock.ledger).values(batch).execute();
    await addToMovementDays(trx, days);
    last = await lastSnapshotDate(trx);
    written = new Map();
  }
  if (last !== null) {
    for (const m of movements) {
      const day = businessDayOf(m.movementDate);
      if (day <= last) await addToSnapshots(trx, m, day, m.direction === 'in' ? m.qty : -m.qty);
    }
  }
  // the rows are locked (PostgreSQL) or the writer is alone (SQLite), so what was written is what was worked out;
  // anything else would be a broken lock, and the posting must not stand on it (ins alone were worked out from no read)
  for (const c of judged ? changes : []) {
    const k = keyText(c.key);
    if (written.get(k)?.qty !== state.get(k)!.qty || written.get(k)?.value !== state.get(k)!.value) throw new Error(`stock balance ${k} changed while a posting held it`);
  }
  return new Map(asked.filter((m) => moved.has(m)).map((m) => [m, moved.get(m)!]));
}
