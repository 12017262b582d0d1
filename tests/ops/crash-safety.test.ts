/**
 * Issues 9 §7 and 10 §6: the server is killed (SIGKILL) while it posts large
 * documents. After a restart there is no partial document, no orphan stock
 * movement, the balance table still equals the ledger, and issued tax
 * invoices are numbered without a gap. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestApp } from '../support/test-app.ts';
import { ADMIN_PASSWORD } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { ledgerMismatches } from '../support/stock-ledger-check.ts';
import { buildInstance, createCrmApp, type Instance } from '../support/crm-fixtures.ts';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const SO_LINES = 120;
const NEW_SO_LINES = 200;
const DO_LINES = 60;
type Row = Record<string, any>;

/** The real server (server/main.ts) as a child process on an existing database; answers its base URL. */
async function startServer(databaseUrl: string, dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/server-main.ts')], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PORT: '0', SEED: 'none', LOG_LEVEL: 'info', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise<string>((ok, fail) => {
    const lines: string[] = [];
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const m = /serving on (http:\/\/[^ ]+)/.exec(line);
      if (m) ok(m[1]!);
    });
    child.once('exit', (code) => fail(new Error(`the server exited with ${code} before listening:\n${lines.join('\n')}`)));
  });
  return { child, base };
}

describe.each(testDialects())('a server killed while posting, on %s', (dialect) => {
  let t: TestApp;
  let after: Instance | null = null;
  let child: ChildProcess | null = null;
  let dataDir: string;
  let c: StockClient;
  const ids = { so: [] as number[], ti: [] as number[], dor: [] as number[] };
  let company = 0, customer = 0, inventory = 0;
  const products: number[] = [];

  beforeAll(async () => {
    await ensureWebBuilt(ROOT);
    dataDir = mkdtempSync(join(tmpdir(), 'bo-crash-'));
    t = await createCrmApp(dialect);
    c = new StockClient(t);
    // the deliveries below are made standalone (do_create_type defaults to create_with_so)
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    inventory = await c.inventory(company);
    for (let i = 0; i < 6; i++) products.push(await c.product());
    await c.receive(inventory, products.map((p) => ({ product_id: p, qty: 1000, price: 10 })));
    const line = (i: number, qty = 1) => ({ product_id: products[i % products.length]!, qty, price: 12.5 });
    for (let i = 0; i < 10; i++) {
      ids.so.push((await c.ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, inventory_id: inventory, items: Array.from({ length: SO_LINES }, (_, j) => line(j)) }), 201)).id);
    }
    for (let i = 0; i < 25; i++) {
      ids.ti.push((await c.ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, items: [line(i, 2)] }), 201)).id);
    }
    // one invoice issued before the crash, so the series is known to continue from it
    await c.ok(c.action('tax_invoice', ids.ti.shift()!, 'issue'));
    for (let i = 0; i < 8; i++) {
      ids.dor.push((await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: inventory }, Array.from({ length: DO_LINES }, (_, j) => ({ product_id: products[j % products.length]!, qty: 1 })))).id);
    }
    // the in-process app steps aside; the database stays for the real server
    await t.app.close();
    await t.db.close();
  }, 240_000);

  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await after?.close();
    await t?.testDb.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no partial document, no orphan movement, no drifted balance and no gap in tax invoice numbers', async () => {
    const server = await startServer(t.testDb.url, dataDir);
    child = server.child;
    const signin = await fetch(`${server.base}/api/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await signin.json()) as Row).data.id_token as string;
    const post = (path: string, body?: unknown) => fetch(`${server.base}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined,
    }).then((r) => r.status, () => 0);
    const newSo = () => ({ doc_date: '2026-11-20', your_company_id: company, customer_id: customer, inventory_id: inventory, items: Array.from({ length: NEW_SO_LINES }, (_, j) => ({ product_id: products[j % products.length]!, qty: 1, price: 3 })) });

    // everything at once; the process dies once a dozen have answered: some work is committed, much is in flight
    let answered = 0;
    let firstAnswer!: () => void;
    const first = new Promise<void>((r) => { firstAnswer = r; });
    const track = (p: Promise<number>) => p.then((s) => { if (s >= 200 && s < 300 && ++answered === 12) firstAnswer(); return s; });
    const work = [
      ...ids.so.map((id) => track(post(`/api/sales_order/${id}/actions/approve`))),
      ...ids.ti.map((id) => track(post(`/api/tax_invoice/${id}/actions/issue`))),
      ...ids.dor.map((id) => track(post(`/api/delivery_order/${id}/actions/approve`))),
      ...Array.from({ length: 8 }, () => track(post('/api/sales_order', newSo()))),
    ];
    await Promise.race([first, new Promise((r) => setTimeout(r, 20_000))]);
    child.kill('SIGKILL');
    await Promise.all(work);
    await new Promise<void>((r) => (child!.exitCode !== null || child!.signalCode !== null ? r() : child!.once('exit', () => r())));
    console.log(`[crash] ${answered} of ${work.length} requests answered before the kill`);
    // the kill came in the middle of the work, not after it
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(work.length);

    // a restart: open and sync the database as a start does
    after = await buildInstance(t.testDb.url, {}, true);
    const k = after.db.kysely;

    // sales orders: each has all of its lines (the old ones 120, the new ones 200), and no line lost its order
    const soLines = await k.selectFrom('sales_order_item').select(['sales_order_id', (eb) => eb.fn.countAll().as('n')]).groupBy('sales_order_id').execute();
    const orders = await k.selectFrom('sales_order').select(['id', 'status']).execute();
    const count = new Map(soLines.map((r) => [Number(r.sales_order_id), Number(r.n)]));
    for (const o of orders) expect([SO_LINES, NEW_SO_LINES], `sales order ${o.id}`).toContain(count.get(Number(o.id)) ?? 0);
    expect(soLines.every((r) => orders.some((o) => Number(o.id) === Number(r.sales_order_id)))).toBe(true);

    // stock: every movement belongs to a posted document line, each posted delivery has all its movements
    const moves = await k.selectFrom('stock_movement').select(['doc_entity', 'doc_id', (eb) => eb.fn.countAll().as('n')]).groupBy(['doc_entity', 'doc_id']).execute();
    const deliveries = await k.selectFrom('delivery_order').select(['id', 'status']).where('id', 'in', ids.dor).execute();
    for (const d of deliveries) {
      const n = Number(moves.find((m) => m.doc_entity === 'delivery_order' && Number(m.doc_id) === Number(d.id))?.n ?? 0);
      expect(n, `delivery ${d.id} (${d.status})`).toBe(d.status === 'draft' ? 0 : DO_LINES);
    }
    for (const m of moves.filter((x) => x.doc_entity === 'delivery_order')) expect(deliveries.map((d) => Number(d.id))).toContain(Number(m.doc_id));
    // the balance table equals the sum of the ledger for every product
    for (const p of products) {
      const now = await after.app.inject({ method: 'GET', url: `/api/stock/balance?product_id=${p}&inventory_id=${inventory}`, headers: await adminHeaders(after) });
      const ledger = await after.app.inject({ method: 'GET', url: `/api/stock/balance?product_id=${p}&inventory_id=${inventory}&as_of=2099-12-31`, headers: await adminHeaders(after) });
      expect(now.json().data[0].qty_on_hand, `product ${p}`).toBe(ledger.json().data[0].qty_on_hand);
    }
    // and for every balance key, in quantity and in value
    expect(await ledgerMismatches(k)).toEqual([]);

    // tax invoices: a number exactly when issued, and the issued numbers run 1..n with no gap
    const invoices = await k.selectFrom('tax_invoice').select(['id', 'status', 'doc_no']).execute();
    for (const i of invoices) expect(i.doc_no === null, `invoice ${i.id} (${i.status})`).toBe(i.status === 'draft');
    const seqs = invoices.filter((i) => i.doc_no !== null).map((i) => Number(String(i.doc_no).split('-').pop())).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));

    // and the restarted server carries on: the next issue takes the next number
    const next = ids.ti.find((id) => invoices.some((i) => Number(i.id) === id && i.status === 'draft'));
    if (next !== undefined) {
      const res = await after.app.inject({ method: 'POST', url: `/api/tax_invoice/${next}/actions/issue`, headers: await adminHeaders(after) });
      expect(res.statusCode, res.body).toBe(200);
      expect(Number(String(res.json().data.doc_no).split('-').pop())).toBe(seqs.length + 1);
    }
  }, 180_000);
});

const tokens = new WeakMap<object, Record<string, string>>();
async function adminHeaders(i: Instance): Promise<Record<string, string>> {
  const known = tokens.get(i);
  if (known) return known;
  const res = await i.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const h = { authorization: `Bearer ${res.json().data.id_token}` };
  tokens.set(i, h);
  return h;
}
