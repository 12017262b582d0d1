/**
 * Server time of a 10-line POS sale (issue 33 §8: under 50 ms), in-process after the demo week:
 * `npx tsx tests/bench/pos-sale-bench.ts` (SQLite; BENCH_DIALECT=postgres with TEST_DATABASE_URL for PostgreSQL).
 * Ten different products, 5 sales to warm up, then 50 timed: median, p90, p99 and slowest, the SQL statements one
 * sale runs (a figure that does not depend on how busy the machine is) and the load average. POS_SQL=1 prints each
 * statement of the last sale with its time. A measurement, never a test; part of `npm run bench`.
 */
import { resolve } from 'node:path';
import { loadavg } from 'node:os';
import { DefaultQueryExecutor } from 'kysely';
import { createTestApp } from '../support/test-app.ts';
import type { DialectName } from '../support/test-databases.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';
import { seedPosWeek } from '../../seed/demo-pos.ts';

type Row = Record<string, any>;
const WARM = 5;
const TIMED = Number(process.env.POS_SALES ?? 50);

// every statement (the pool's and each transaction's) goes through a DefaultQueryExecutor
let counting = false;
let statements: string[] = [];
const proto = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as { executeQuery: (...a: unknown[]) => Promise<unknown> };
const original = proto.executeQuery;
proto.executeQuery = async function (this: unknown, ...a: unknown[]) {
  if (!counting) return original.apply(this, a);
  const t0 = performance.now();
  try { return await original.apply(this, a); } finally {
    statements.push(`${(performance.now() - t0).toFixed(2)} ms  ${String((a[0] as { sql: string }).sql).replace(/\s+/g, ' ').slice(0, 150)}`);
  }
};

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const dialect = (process.env.BENCH_DIALECT ?? 'sqlite') as DialectName;
  const t = await createTestApp(dialect);
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Row = {}) => {
    const res = await t.app.inject({ method, url, headers: { ...t.headers, ...headers }, ...(payload === undefined ? {} : { payload: payload as never }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json() as Row;
  };
  try {
    await loadSeedDir(t.service, resolve(import.meta.dirname, '../../seed/demo'));
    const a = performance.now();
    await seedPosWeek(t.service);
    console.log(`demo POS week seeded in ${Math.round(performance.now() - a)} ms (${dialect})`);
    const filter = (f: unknown) => encodeURIComponent(JSON.stringify(f));
    const pos = (await call('GET', `/api/pos?filter=${filter({ code: { _eq: 'POS-LK-01' } })}`)).data[0];
    const cash = (await call('GET', `/api/payment_method?filter=${filter({ code: { _eq: 'CASH' } })}`)).data[0];
    const products = ((await call('GET', `/api/product?limit=100&sort=code&filter=${filter({ price: { _gt: 0 } })}`)).data as Row[]).slice(0, 10);
    if (products.length < 10) throw new Error(`the demo has ${products.length} products with a price, not 10`);
    for (const p of products) {
      await call('POST', '/api/stock_movement', { product_id: p.id, inventory_id: pos.inventory_id, direction: 'in', movement_type: 'adjustment', qty: 10_000, unit_cost: 10, movement_date: new Date().toISOString() });
    }
    const shift = (await call('POST', '/api/pos_shift', { pos_id: pos.id, opening_cash: 0 })).data;
    const body = { pos_shift_id: shift.id, items: products.map((p) => ({ product_id: p.id, qty: 1 })), payments: [{ payment_method_id: cash.id, amount: 100_000 }] };
    const times: number[] = [];
    for (let i = 0; i < WARM + TIMED; i++) {
      statements = [];
      counting = true;
      const s = performance.now();
      await call('POST', '/api/pos_order', body, { 'idempotency-key': `bench-${Date.now()}-${i}` });
      const ms = performance.now() - s;
      counting = false;
      if (i >= WARM) times.push(ms);
    }
    times.sort((x, y) => x - y);
    console.log(`10-line sale (${dialect}, ${TIMED} after ${WARM} to warm up): median ${pct(times, 50).toFixed(1)} ms, p90 ${pct(times, 90).toFixed(1)}, p99 ${pct(times, 99).toFixed(1)}, slowest ${times.at(-1)!.toFixed(1)}; ${statements.length} SQL statements per sale; load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    if (process.env.POS_SQL === '1') for (const line of statements) console.log(`  ${line}`);
  } finally {
    await t.close();
  }
}

main().catch((err) => { console.error(err); process.exitCode = 1; });
