/**
 * Server time of a 10-line POS sale (issue 33 §8), in-process on SQLite after the demo week: `npx tsx tests/bench/pos-sale-bench.ts`.
 * Prints the time the demo week takes to seed and the median and slowest of 20 sales. A measurement, never a test.
 */
import { resolve } from 'node:path';
import { createTestApp } from '../support/test-app.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';
import { seedPosWeek } from '../../seed/demo-pos.ts';
async function main() {
const t = await createTestApp('sqlite');
await loadSeedDir(t.service, resolve(import.meta.dirname, '../../seed/demo'));
const a = performance.now();
await seedPosWeek(t.service);
console.log('seedPosWeek ms', Math.round(performance.now() - a));
const b = performance.now();
const res = await t.app.inject({ method: 'GET', url: '/api/pos_shift?limit=1&filter=' + encodeURIComponent(JSON.stringify({status:{_eq:'closed'}})), headers: t.headers });
const shift = res.json().data[0];
// bench: open a shift on a fresh terminal and time 10-line sales
const pos = await t.app.inject({ method: 'GET', url: '/api/pos?limit=1&sort=code&filter=' + encodeURIComponent(JSON.stringify({ code: { _eq: 'POS-LK-01' } })), headers: t.headers });
const open = await t.app.inject({ method: 'POST', url: '/api/pos_shift', headers: t.headers, payload: { pos_id: pos.json().data[0].id, opening_cash: 0 } });
const prods = (await t.app.inject({ method: 'GET', url: '/api/product?limit=50&filter=' + encodeURIComponent(JSON.stringify({ code: { _in: ['P006','P012'] } })), headers: t.headers })).json().data;
for (const p of prods) await t.app.inject({ method: 'POST', url: '/api/stock_movement', headers: t.headers, payload: { product_id: p.id, inventory_id: pos.json().data[0].inventory_id, direction: 'in', movement_type: 'adjustment', qty: 1000, unit_cost: 10, movement_date: new Date().toISOString() } });
const times: number[] = [];
for (let i = 0; i < 20; i++) {
  const items = Array.from({ length: 10 }, (_, j) => ({ product_id: prods[j % prods.length].id, qty: 1 }));
  const s = performance.now();
  const r = await t.app.inject({ method: 'POST', url: '/api/pos_order', headers: { ...t.headers, 'idempotency-key': `bench-key-${i}-xxxx` }, payload: { pos_shift_id: open.json().data.id, items, payments: [{ payment_method_id: 1, amount: 5000 }] } });
  times.push(performance.now() - s);
  if (r.statusCode !== 201) { console.log(r.body); break; }
}
times.sort((x, y) => x - y);
console.log('10-line sale ms median', times[Math.floor(times.length / 2)]?.toFixed(1), 'max', times.at(-1)?.toFixed(1), shift ? '' : '');
await t.close();
}
void main();
