/**
 * `npx tsx tests/bench/posting-statements.ts`: how many SQL statements one
 * posting runs, per dialect (a figure that does not depend on how busy the
 * machine is, unlike the timings of documents-bench.ts). Counts every query
 * the app's Kysely executors run during the request, transactions included.
 */
import { performance } from 'node:perf_hooks';
import { DefaultQueryExecutor } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import type { DialectName } from '../support/test-databases.ts';

let counting = false;
let count = 0;
// every executor (the pool's and each transaction's) is a DefaultQueryExecutor; counting at its
// executeQuery sees each statement once, whatever the dialect
const proto = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as { executeQuery: (...a: unknown[]) => Promise<unknown> };
const original = proto.executeQuery;
// POSTING_SQL=1 also prints each counted statement (its start) and how long it took
const trace = process.env.POSTING_SQL === '1';
proto.executeQuery = async function (this: unknown, ...a: unknown[]) {
  if (!counting) return original.apply(this, a);
  count++;
  const t0 = performance.now();
  try { return await original.apply(this, a); } finally {
    if (trace) console.log(`    ${(performance.now() - t0).toFixed(2)} ms  ${String((a[0] as { sql: string }).sql).replace(/\s+/g, ' ').slice(0, 140)}`);
  }
};

type Row = Record<string, any>;

async function call(t: TestApp, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<Row> {
  const res = await t.app.inject({ method, url, headers: t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`);
  return res.json().data;
}

async function counted(t: TestApp, url: string): Promise<number> {
  count = 0;
  counting = true;
  try { await call(t, 'POST', url); } finally { counting = false; }
  return count;
}

function taxId(n: number): string {
  const body = String(n).padStart(12, '0').slice(-12);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (13 - i);
  return body + String((11 - (sum % 11)) % 10);
}

async function run(dialect: DialectName): Promise<string[]> {
  const t = await createTestApp(dialect);
  try {
    const company = (await call(t, 'POST', '/api/your_company', { code: 'SCO', name_th: 'บริษัท นับ จำกัด', tax_id: taxId(105558000011), branch_code: '00000', is_vat_registered: true })).id;
    const customer = (await call(t, 'POST', '/api/customer', { code: 'SCU', customer_type: 'juristic', name_th: 'บริษัท ลูกค้านับ จำกัด', tax_id: taxId(745540000017), branch_code: '00000' })).id;
    const inventory = (await call(t, 'POST', '/api/inventory', { code: 'SIN', name: 'คลังนับ' })).id;
    const products: number[] = [];
    for (let i = 0; i < 50; i++) products.push((await call(t, 'POST', '/api/product', { code: `SP${i}`, name_th: `สินค้านับ ${i}`, product_class: 'class_a', unit: 'ชิ้น', price: 100 + i, vat_type: 'vat7' })).id);
    const so = await call(t, 'POST', '/api/sales_order', { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: products.map((p, i) => ({ product_id: p, qty: 1 + (i % 7), price: 100 + i })) });
    const out: string[] = [];
    out.push(`approve a 50-line sales order: ${await counted(t, `/api/sales_order/${so.id}/actions/approve`)}`);
    const ti = await call(t, 'POST', '/api/tax_invoice/from/sales_order', { ids: [so.id] });
    out.push(`issue a 50-line tax invoice: ${await counted(t, `/api/tax_invoice/${ti.id}/actions/issue`)}`);
    const bn = await call(t, 'POST', '/api/billing_note/from/sales_order', { ids: [so.id] });
    out.push(`issue a 50-line billing note: ${await counted(t, `/api/billing_note/${bn.id}/actions/issue`)}`);
    const rc = await call(t, 'POST', '/api/receipt/from/billing_note', { ids: [bn.id] });
    out.push(`post the receipt: ${await counted(t, `/api/receipt/${rc.id}/actions/post`)}`);
    const lines = products.slice(0, 20);
    const gr = await call(t, 'POST', '/api/goods_receipt', { doc_date: '2026-11-20', inventory_id: inventory, items: lines.map((p) => ({ product_id: p, qty: 100, price: 10 })) });
    out.push(`approve a 20-line goods receipt: ${await counted(t, `/api/goods_receipt/${gr.id}/actions/approve`)}`);
    const site = (await call(t, 'GET', '/api/setting_site?sort=id'))?.[0];
    if (site) await call(t, 'PATCH', `/api/setting_site/${site.id}`, { do_create_type: 'create_without_so' });
    else await call(t, 'POST', '/api/setting_site', { do_create_type: 'create_without_so' });
    const d = await call(t, 'POST', '/api/delivery_order', { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, inventory_id: inventory, items: lines.map((p) => ({ product_id: p, qty: 1 })) });
    out.push(`approve a 20-line delivery: ${await counted(t, `/api/delivery_order/${d.id}/actions/approve`)}`);
    out.push(`cancel the 20-line delivery: ${await counted(t, `/api/delivery_order/${d.id}/actions/cancel`)}`);
    return out;
  } finally {
    await t.close();
  }
}

const dialects: DialectName[] = ['sqlite'];
if (process.env.BENCH_POSTGRES !== '0') { process.env.TEST_DATABASE_URL ??= 'postgres://127.0.0.1:5432/test'; dialects.push('postgres'); }
for (const d of dialects) {
  const lines = await run(d);
  console.log(`== statements per posting on ${d} ==\n  ${lines.join('\n  ')}`);
}
