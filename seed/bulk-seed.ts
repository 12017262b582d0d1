import { sql } from 'kysely';
import type { EntitySchema, FieldDef } from '../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import type { Database } from '../server/db/dialect-adapter.ts';
import { columnDefs, toDb } from '../server/db/field-codec.ts';
import { analyzeTables, insertGeneratedRows } from '../server/db/bulk-rows.ts';
import { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { ensureStockTables } from '../server/stock/stock-ledger.ts';
import { rebuildBalanceTotals } from '../server/stock/balance-totals.ts';
import { rebuildMovementDays } from '../server/stock/movement-days.ts';
import { firstInOfLedger } from '../server/stock/balance-first-in.ts';
import { takeMissingSnapshots } from '../server/stock/stock-snapshots.ts';
import { bulkJournal } from './bulk-journal.ts';

/**
 * Generates a large, realistic stock ledger for benchmarks: `size` rows in
 * stock_movement over 2 years, for 20–200 products and 3 inventories.
 *
 * Products and inventories are created through the EntityService (validated
 * like anything a user types). Ledger rows bypass the service for speed but
 * every value goes through field-codec's toDb, so they are stored exactly as
 * the API would store them. The data is deterministic for a given size.
 */

export const LEDGER = 'stock_movement';
/** Bumped whenever the generated data changes, so cached benchmark databases are rebuilt. */
export const BULK_SEED_VERSION = 4;

export interface BulkSeedOptions {
  size: number;
  /** Posted journal lines to add as well (seed/bulk-journal.ts), for the ledger reports; none unless asked. */
  journalLines?: number;
  log?: (msg: string) => void;
}

export interface BulkSeedResult {
  rows: number;
  /** Ids of the products the rows link to, heaviest first (product i has weight 1/sqrt(i+1)). */
  productIds: number[];
  inventoryIds: number[];
  /** Wall time in milliseconds, including the products, inventories and ANALYZE. */
  ms: number;
}

type Log = (msg: string) => void;

const PRODUCT_PREFIX = 'BENCH-P';
const INVENTORY_CODES = ['BENCH-WH1', 'BENCH-WH2', 'BENCH-WH3'];
const INVENTORY_WEIGHTS = [0.6, 0.3, 0.1];
/** The ledger ends at a fixed instant so the data does not depend on the day it is generated. */
const END_MS = Date.UTC(2026, 0, 1);
const SPAN_MS = 730 * 86_400_000;
const DAY_MS = 86_400_000;

const MOVEMENT_TYPES: { type: string; weight: number; prefix: string; inShare: number }[] = [
  { type: 'receipt', weight: 0.3, prefix: 'GR', inShare: 1 },
  { type: 'delivery', weight: 0.38, prefix: 'DO', inShare: 0 },
  { type: 'transfer', weight: 0.12, prefix: 'TR', inShare: 0.5 },
  { type: 'production', weight: 0.08, prefix: 'MO', inShare: 1 },
  { type: 'return', weight: 0.04, prefix: 'RT', inShare: 0.5 },
  { type: 'waste', weight: 0.03, prefix: 'WS', inShare: 0 },
  { type: 'adjustment', weight: 0.05, prefix: 'AJ', inShare: 0.5 },
];

/** mulberry32: small, fast, deterministic. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cumulative(weights: number[]): Float64Array {
  const total = weights.reduce((a, b) => a + b, 0);
  const out = new Float64Array(weights.length);
  let acc = 0;
  weights.forEach((w, i) => { acc += w / total; out[i] = acc; });
  out[weights.length - 1] = 1;
  return out;
}

function pick(cum: Float64Array, r: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (r < cum[mid]!) hi = mid; else lo = mid + 1;
  }
  return lo;
}

/** How many products a ledger of this size spreads over. */
export function productCountFor(size: number): number {
  return Math.max(20, Math.min(200, Math.round(size / 5000)));
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** Creates the missing benchmark products and inventories through the service; returns their ids in code order. */
async function ensureMasters(db: Database, registry: SchemaRegistry, products: number): Promise<{ productIds: number[]; inventoryIds: number[]; productCost: number[] }> {
  const service = new EntityService(db, registry);
  const existing = async (table: string, codes: string[]) => {
    const rows = await db.kysely.selectFrom(table).select(['id', 'code']).where('code', 'in', codes).execute();
    return new Map(rows.map((r) => [String(r.code), Number(r.id)]));
  };

  const invFound = await existing('inventory', INVENTORY_CODES);
  const inventoryIds: number[] = [];
  for (const [i, code] of INVENTORY_CODES.entries()) {
    let id = invFound.get(code);
    if (id === undefined) {
      const created = await service.create('inventory', {
        code, name: `Benchmark warehouse ${i + 1}`, inventory_type: i === 2 ? 'store' : 'warehouse', province: 'กรุงเทพมหานคร',
      }, systemContext);
      id = Number(created.id);
    }
    inventoryIds.push(id);
  }

  const codes = Array.from({ length: products }, (_, i) => `${PRODUCT_PREFIX}${pad(i + 1, 4)}`);
  const prodFound = await existing('product', codes);
  const productIds: number[] = [];
  const productCost: number[] = [];
  const classes = ['class_a', 'class_b', 'product', 'product'];
  for (const [i, code] of codes.entries()) {
    // deterministic per product, whether or not it already existed
    const cost = Math.round((5 + rng(1000 + i)() * 995) * 100) / 100;
    productCost.push(cost);
    let id = prodFound.get(code);
    if (id === undefined) {
      const created = await service.create('product', {
        code, name_th: `สินค้าทดสอบ ${i + 1}`, name_en: `Benchmark product ${i + 1}`, product_class: classes[i % classes.length],
        category: `Category ${(i % 12) + 1}`, unit: 'ชิ้น', cost, price: Math.round(cost * 130) / 100, is_track_lot: true,
      }, systemContext);
      id = Number(created.id);
    }
    productIds.push(id);
  }
  return { productIds, inventoryIds, productCost };
}

const NOTES = ['ตรวจนับประจำเดือน', 'รับคืนจากลูกค้า สินค้าสภาพดี', 'โอนย้ายระหว่างคลังตามคำขอฝ่ายขาย', 'ปรับยอดตามผลตรวจนับ', 'สินค้าชำรุดระหว่างขนส่ง รอเคลม'];

/** One API-level value per ledger column, in `columns` order, for row i of n. */
function makeGenerator(columns: string[], defs: Map<string, FieldDef>, n: number, productIds: number[], productCost: number[], inventoryIds: number[]) {
  const rand = rng(20260101);
  const prodCum = cumulative(productIds.map((_, i) => 1 / Math.sqrt(i + 1)));
  const invCum = cumulative(INVENTORY_WEIGHTS);
  const typeCum = cumulative(MOVEMENT_TYPES.map((t) => t.weight));
  const start = END_MS - SPAN_MS;
  const step = SPAN_MS / Math.max(1, n);
  let docNo = 0;
  let docLeft = 0;
  let docPrefix = 'GR';

  const generators: Record<string, (ctx: GenCtx) => unknown> = {
    movement_date: (c) => new Date(c.ms).toISOString(),
    product_id: (c) => productIds[c.product],
    inventory_id: (c) => inventoryIds[c.inventory],
    product_location_id: () => null,
    direction: (c) => c.direction,
    movement_type: (c) => c.type.type,
    // 4 decimals, mostly whole or half units like real counts, some weighed quantities
    qty: () => {
      const r = rand();
      if (r < 0.6) return 1 + Math.floor(rand() * 200);
      if (r < 0.8) return (1 + Math.floor(rand() * 400)) / 2;
      return Math.round((0.0001 + rand() * 999) * 10_000) / 10_000;
    },
    unit_cost: (c) => Math.round(productCost[c.product]! * (0.9 + rand() * 0.2) * 100) / 100,
    lot_no: (c) => `L${new Date(c.ms).toISOString().slice(2, 7).replace('-', '')}-${pad(c.product + 1, 4)}-${pad(Math.floor(rand() * 20) + 1, 2)}`,
    expiry_date: (c) => (c.direction === 'in' && c.product % 3 === 0 ? new Date(c.ms + 365 * DAY_MS).toISOString().slice(0, 10) : null),
    ref_doc: (c) => `${c.docPrefix}-${new Date(c.ms).getUTCFullYear()}-${pad(c.docNo, 7)}`,
    note: () => (rand() < 0.15 ? NOTES[Math.floor(rand() * NOTES.length)] : null),
    // system columns filled as the API fills them, so rows are as wide as real ones: posted a few minutes
    // after the movement by one of a dozen users, a tenth of them edited later by someone else
    created_at: (c) => new Date(c.ms + 60_000 + Math.floor(rand() * 1_800_000)).toISOString(),
    updated_at: (c) => { c.edited = rand() < 0.1; return new Date(c.ms + 60_000 + (c.edited ? 86_400_000 : 0) + Math.floor(rand() * 1_800_000)).toISOString(); },
    created_by: (c) => { c.user = 1 + Math.floor(rand() * 12); return c.user; },
    updated_by: (c) => (c.edited ? 1 + ((c.user + 1 + Math.floor(rand() * 10)) % 12) : c.user),
  };
  const fill = columns.map((c) => {
    const g = generators[c];
    if (g) return g;
    // a field added to the schema later: its default, or empty
    const d = defs.get(c)?.default;
    return () => d ?? null;
  });
  const encode = columns.map((c) => defs.get(c)!);

  interface GenCtx { ms: number; product: number; inventory: number; type: (typeof MOVEMENT_TYPES)[number]; direction: string; docNo: number; docPrefix: string; user: number; edited: boolean }
  const ctx: GenCtx = { ms: 0, product: 0, inventory: 0, type: MOVEMENT_TYPES[0]!, direction: 'in', docNo: 0, docPrefix: 'GR', user: 1, edited: false };

  /** Fills `out` with the stored (toDb-encoded) values of row i. */
  return (i: number, out: unknown[]) => {
    // a ledger is appended in time order: ids and dates rise together, with some jitter
    const ms = start + i * step + (rand() - 0.5) * Math.min(step * 4, DAY_MS);
    // business hours in Bangkok (01:00–11:00 UTC), whole seconds
    const day = Math.floor(ms / DAY_MS) * DAY_MS;
    ctx.ms = day + 3_600_000 + Math.floor(rand() * 36_000) * 1000;
    if (docLeft <= 0) {
      docNo += 1;
      docLeft = 1 + Math.floor(rand() * 8);
      ctx.type = MOVEMENT_TYPES[pick(typeCum, rand())]!;
      docPrefix = ctx.type.prefix;
      ctx.inventory = pick(invCum, rand());
      ctx.direction = rand() < ctx.type.inShare ? 'in' : 'out';
    }
    docLeft -= 1;
    ctx.docNo = docNo;
    ctx.docPrefix = docPrefix;
    ctx.product = pick(prodCum, rand());
    for (let c = 0; c < fill.length; c++) out[c] = toDb(encode[c]!, fill[c]!(ctx));
  };
}

function progress(log: Log, total: number, t0: number) {
  let next = 0;
  const every = Math.max(10_000, Math.ceil(total / 10));
  return (done: number) => {
    if (done < next && done < total) return;
    next = done + every;
    if (total >= 50_000 || done === total) {
      const s = (performance.now() - t0) / 1000;
      log(`  ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} rows (${Math.round((done / total) * 100)}%), ${s.toFixed(1)} s`);
    }
  };
}

/**
 * The ledger rows bypass posting, so the balance table (what "on hand now"
 * reads) is set from their sum here: current balances and balances summed
 * from the ledger then agree, as they do after real postings.
 */
async function rebuildBalances(db: Database, registry: SchemaRegistry, productIds: number[]): Promise<void> {
  await ensureStockTables(db, registry);
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('stock_balance').where('product_id', 'in', productIds).execute();
    await sql`insert into stock_balance (product_id, inventory_id, location_id, lot_no, expiry_date, qty, value)
      select product_id, inventory_id, coalesce(product_location_id, 0), coalesce(lot_no, ''), coalesce(cast(expiry_date as text), ''),
        sum(case when direction = 'in' then qty else -qty end),
        sum(case when direction = 'in' then 1 else -1 end * qty * coalesce(unit_cost, 0)) / 10000
      from stock_movement where product_id in (${sql.join(productIds)})
      group by product_id, inventory_id, coalesce(product_location_id, 0), coalesce(lot_no, ''), coalesce(cast(expiry_date as text), '')`.execute(trx);
    await sql`update stock_balance set first_in_day = s.d from (${firstInOfLedger(db.adapter.name, LEDGER)}) s
      where stock_balance.product_id = s.product_id and stock_balance.inventory_id = s.inventory_id and stock_balance.location_id = s.location_id
        and stock_balance.lot_no = s.lot_no and stock_balance.expiry_date = s.expiry_date and stock_balance.container_id = s.container_id
        and stock_balance.product_id in (${sql.join(productIds)})`.execute(trx);
    await rebuildBalanceTotals(trx, productIds);
    await rebuildMovementDays(trx, db.adapter.name, LEDGER);
  });
}

export async function bulkSeed(db: Database, registry: SchemaRegistry, opts: BulkSeedOptions): Promise<BulkSeedResult> {
  const { size } = opts;
  const log = opts.log ?? (() => undefined);
  if (!Number.isInteger(size) || size < 1) throw new Error(`size must be a positive whole number, not ${size}`);
  const entity = registry.fileSchema(LEDGER);
  if (!entity) throw new Error(`There is no ${LEDGER} schema to seed`);
  const t0 = performance.now();

  const products = productCountFor(size);
  const masters = await ensureMasters(db, registry, products);
  log(`${products} products and ${masters.inventoryIds.length} inventories ready (${Math.round(performance.now() - t0)} ms)`);

  const defs = columnDefs(entity);
  const columns = [...defs.keys()].filter((c) => c !== 'id');
  const gen = makeGenerator(columns, defs, size, masters.productIds, masters.productCost, masters.inventoryIds);
  const tInsert = performance.now();
  log(`writing ${size.toLocaleString('en-US')} ${LEDGER} rows (${db.adapter.name})`);
  const tick = progress(log, size, tInsert);
  await insertGeneratedRows(db, LEDGER, entity, columns, size, gen, tick);

  await rebuildBalances(db, registry, masters.productIds);
  // PostgreSQL's planner needs statistics of the tables just filled (its autovacuum would take them
  // within minutes): without them it guessed 7 balance rows for 380,000 and read them the slowest way
  await analyzeTables(db, ['stock_balance', 'stock_balance_total', 'stock_lot_total', 'stock_movement_day']);
  log(`stock_balance rebuilt from the ledger for the ${products} products`);
  // the generated rows bypassed posting, so month-end snapshots are taken afresh from the whole ledger
  await db.kysely.deleteFrom('stock_snapshot').execute();
  await db.kysely.deleteFrom('stock_snapshot_total').execute();
  await db.kysely.deleteFrom('stock_snapshot_date').execute();
  const snapshots = await takeMissingSnapshots(db, LEDGER, new Date().toISOString().slice(0, 10));
  log(`${snapshots} month-end stock snapshots taken`);
  if (opts.journalLines) await bulkJournal(db, registry, { lines: opts.journalLines, log });
  const ms = performance.now() - t0;
  log(`done: ${size.toLocaleString('en-US')} rows in ${(ms / 1000).toFixed(1)} s (${Math.round(size / ((performance.now() - tInsert) / 1000)).toLocaleString('en-US')} rows/s for the ledger)`);
  return { rows: size, productIds: masters.productIds, inventoryIds: masters.inventoryIds, ms };
}
