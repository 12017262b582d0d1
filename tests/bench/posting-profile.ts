/**
 * `npx tsx tests/bench/posting-profile.ts`: what each request kind of the load mix costs
 * in-process (fastify.inject, no network), on SQLite (DIALECT=postgres with TEST_DATABASE_URL) with
 * the demo data: medians per kind, and CPU per cycle. N cycles (300); DOCS_ONLY=1 runs only the
 * postings; LISTENERS=1 also prints the time spent in each write and action listener per cycle;
 * STATEMENTS=1 prints the SQL statements of each request kind's last call.
 * For a CPU profile: `node --cpu-prof --cpu-prof-dir=DIR --import tsx tests/bench/posting-profile.ts`
 * and tests/bench/cpu-profile-summary.ts DIR. A tool for finding costs, not a benchmark with targets.
 */
import { performance } from 'node:perf_hooks';
import { DefaultQueryExecutor } from 'kysely';
import { join } from 'node:path';
import { createTestApp } from '../support/test-app.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';

const N = Number(process.env.N ?? 300);
const t = await createTestApp((process.env.DIALECT as 'sqlite') ?? 'sqlite');
await loadSeedDir(t.service, join(import.meta.dirname, '../../seed/demo'));
const call = async (method: string, url: string, payload?: unknown, enc = 'identity') => {
  const res = await t.app.inject({ method: method as 'GET', url, headers: { ...t.headers, 'accept-encoding': enc }, ...(payload ? { payload: payload as object } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res;
};
const ids = (await call('GET', '/api/product?limit=10&fields=id')).json().data.map((r: any) => r.id) as number[];
const inv = (await call('GET', '/api/inventory?limit=2&sort=id&fields=id')).json().data.map((r: any) => r.id) as number[];
await call('POST', `/api/goods_receipt/${(await call('POST', '/api/goods_receipt', { doc_date: '2026-11-19', inventory_id: inv[0], items: ids.map((p) => ({ product_id: p, qty: 100000, price: 12 })) })).json().data.id}/actions/approve`);
const times: Record<string, number[]> = {};
// per listener: where a write's time goes (the listener's source location names it)
const spent = new Map<string, number>();
// the registered listeners of server/crud/write-events.ts (ListenerList.all), wrapped before any write picks them
const wrap = (arr: { listener: any }[], kind: string) => arr.forEach((r, i) => {
  const fn = r.listener;
  const where = `${kind}#${i} ${String(fn).slice(0, 90).replace(/\s+/g, ' ')}`;
  r.listener = async (...a: any[]) => { const t0 = performance.now(); try { return await fn(...a); } finally { spent.set(where, (spent.get(where) ?? 0) + performance.now() - t0); } };
});
if (process.env.LISTENERS) { const ev = (t.service as any).events; wrap(ev.writes.all, 'write'); wrap(ev.actions.all, 'action'); ev.writes.picked = new WeakMap(); ev.actions.picked = new WeakMap(); }
// STATEMENTS=1: each request kind's SQL statements (counted at Kysely's executor, transactions included), printed once per kind
const statements = new Map<string, string[]>();
let current: string[] | null = null;
if (process.env.STATEMENTS) {
  const proto = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as { executeQuery: (...a: unknown[]) => Promise<unknown> };
  const original = proto.executeQuery;
  proto.executeQuery = async function (this: unknown, ...a: unknown[]) {
    const t0 = performance.now();
    try { return await original.apply(this, a); } finally { current?.push(`${(performance.now() - t0).toFixed(2).padStart(6)} ms  ${String((a[0] as { sql: string }).sql).replace(/\s+/g, ' ').slice(0, 150)}`); }
  };
}
const time = async (k: string, f: () => Promise<any>) => {
  current = [];
  const t0 = performance.now(); const r = await f(); (times[k] ??= []).push(performance.now() - t0);
  statements.set(k, current); current = null;
  return r;
};
const cpu0 = process.cpuUsage(); const wall0 = performance.now();
for (let i = 0; i < N; i++) {
  const lines = Array.from({ length: 5 }, (_, j) => ids[(i + j) % ids.length]);
  const [e, body] = i % 2
    ? ['internal_product_transfer', { doc_date: '2026-11-21', from_inventory_id: inv[0], to_inventory_id: inv[1], items: lines.map((p) => ({ product_id: p, qty: 1 })) }]
    : ['goods_receipt', { doc_date: '2026-11-20', inventory_id: inv[0], items: lines.map((p) => ({ product_id: p, qty: 10, price: 12 })) }];
  const d = await time(`draft ${e}`, () => call('POST', `/api/${e}`, body));
  await time(`post ${e}`, () => call('POST', `/api/${e}/${d.json().data.id}/actions/approve`));
  if (process.env.DOCS_ONLY) continue;
  await time('list product', () => call('GET', '/api/product?limit=50&sort=-id', undefined, 'gzip, br'));
  await time('get product', () => call('GET', `/api/product/${ids[i % 10]}`, undefined, 'gzip, br'));
  const c = await time('create return_reason', () => call('POST', '/api/return_reason', { code: `L${i}X${Date.now() % 100000}`, name_th: 'เหตุผล', return_side: 'sales' }));
  await time('update return_reason', () => call('PATCH', `/api/return_reason/${c.json().data.id}`, { name_th: 'แก้' }));
}
{ const c = process.cpuUsage(cpu0); console.log(`per cycle: wall ${((performance.now() - wall0) / N).toFixed(2)} ms, CPU ${((c.user + c.system) / 1000 / N).toFixed(2)} ms`); }
for (const [k, xs] of Object.entries(times)) {
  const s = xs.slice(Math.floor(xs.length / 5)).sort((a, b) => a - b);
  console.log(k.padEnd(34), 'median', s[Math.floor(s.length / 2)]!.toFixed(2), 'ms  mean', (s.reduce((a, b) => a + b, 0) / s.length).toFixed(2));
}
if (process.env.STATEMENTS) for (const [k, xs] of statements) console.log(`\n${k}: ${xs.length} statements\n  ${xs.join('\n  ')}`);
for (const [k, v] of [...spent].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / N).toFixed(3).padStart(7), 'ms/cycle', k);
await t.close();
