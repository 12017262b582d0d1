/**
 * `npm run bench` (second part): document posting and the stock ledger, on
 * SQLite and PostgreSQL (when BENCH_DATABASE_URL or TEST_DATABASE_URL names a
 * server). A benchmark, not a test: it prints PASS/MISS per target of issues
 * 9 §5 and 10 §4 and exits 0 either way.
 *
 * Each figure is the time the server takes to answer one request, measured
 * in-process with fastify.inject (no network), one request at a time.
 *  - 50-line sales order: create the draft, then post it (approve)
 *  - convert the posted order to a tax invoice (create from) and issue it; to a
 *    billing note and issue it; the note to a receipt and post it
 *  - on a ledger of BENCH_LEDGER_ROWS (1,000,000) movements: the balance of one
 *    product in every inventory; every product of one inventory as of a past
 *    date; posting a backdated goods receipt; posting a 20-line delivery
 */
import { performance } from 'node:perf_hooks';
import { bulkSeed } from '../../seed/bulk-seed.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import type { DialectName } from '../support/test-databases.ts';

const env = process.env;
const LEDGER_ROWS = Number((env.BENCH_LEDGER_ROWS ?? '1000000').replace(/_/g, ''));
const RUNS = Number(env.BENCH_DOC_RUNS ?? 30);
const log = (m: string) => console.log(`[bench:documents] ${m}`);
type Row = Record<string, any>;

/** A valid 13-digit Thai tax id (mod-11 check digit). */
function taxId(n: number): string {
  const body = String(n).padStart(12, '0').slice(-12);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (13 - i);
  return body + String((11 - (sum % 11)) % 10);
}

interface Figure { name: string; target: number; samples: number[] }
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)]!;

class Api {
  constructor(private readonly t: TestApp) {}
  async call(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, expect = 0): Promise<{ ms: number; data: any }> {
    const t0 = performance.now();
    const res = await this.t.app.inject({ method, url, headers: this.t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    const ms = performance.now() - t0;
    if (res.statusCode >= 300 || (expect && res.statusCode !== expect)) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 400)}`);
    return { ms, data: res.json().data };
  }
  async make(entity: string, body: Row): Promise<number> {
    return (await this.call('POST', `/api/${entity}`, body)).data.id as number;
  }
}

interface Parties { company: number; customer: number }

async function parties(api: Api): Promise<Parties> {
  const company = await api.make('your_company', { code: 'BCO', name_th: 'บริษัท เบนช์ จำกัด', tax_id: taxId(105558000011), branch_code: '00000', is_vat_registered: true });
  const customer = await api.make('customer', { code: 'BCU', customer_type: 'juristic', name_th: 'บริษัท ลูกค้าเบนช์ จำกัด', tax_id: taxId(745540000017), branch_code: '00000', credit_term_days: 30 });
  return { company, customer };
}

async function documents(api: Api, { company, customer }: Parties): Promise<Figure[]> {
  const products: number[] = [];
  for (let i = 0; i < 50; i++) products.push(await api.make('product', { code: `BP${i}`, name_th: `สินค้าเบนช์ ${i}`, product_class: 'class_a', unit: 'ชิ้น', price: 100 + i, vat_type: 'vat7' }));
  const create: number[] = [], post: number[] = [], convert: number[] = [], issue: number[] = [];
  const bill: number[] = [], billIssue: number[] = [], receipt: number[] = [], receiptPost: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const items = products.map((p, i) => ({ product_id: p, qty: 1 + (i % 7), price: 99.75 + i, discount_percent: i % 3 === 0 ? 5 : 0 }));
    const made = await api.call('POST', '/api/sales_order', { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', items }, 201);
    create.push(made.ms);
    post.push((await api.call('POST', `/api/sales_order/${made.data.id}/actions/approve`)).ms);
    const ti = await api.call('POST', '/api/tax_invoice/from/sales_order', { ids: [made.data.id] }, 201);
    convert.push(ti.ms);
    issue.push((await api.call('POST', `/api/tax_invoice/${ti.data.id}/actions/issue`)).ms);
    const bn = await api.call('POST', '/api/billing_note/from/sales_order', { ids: [made.data.id] }, 201);
    bill.push(bn.ms);
    billIssue.push((await api.call('POST', `/api/billing_note/${bn.data.id}/actions/issue`)).ms);
    const rc = await api.call('POST', '/api/receipt/from/billing_note', { ids: [bn.data.id] }, 201);
    receipt.push(rc.ms);
    receiptPost.push((await api.call('POST', `/api/receipt/${rc.data.id}/actions/post`)).ms);
  }
  return [
    { name: 'create a 50-line sales order (draft)', target: 30, samples: create },
    { name: 'post (approve) a 50-line sales order', target: 30, samples: post },
    { name: 'convert it to a tax invoice (create from)', target: 30, samples: convert },
    { name: 'issue the 50-line tax invoice (numbered)', target: 30, samples: issue },
    { name: 'convert the order to a billing note', target: 30, samples: bill },
    { name: 'issue the billing note', target: 30, samples: billIssue },
    { name: 'convert the billing note to a receipt', target: 30, samples: receipt },
    { name: 'post the receipt', target: 30, samples: receiptPost },
  ];
}

async function ledger(t: TestApp, api: Api, { company, customer }: Parties): Promise<Figure[]> {
  log(`seeding ${LEDGER_ROWS.toLocaleString('en-US')} ledger rows (${t.testDb.dialect})…`);
  const seeded = await bulkSeed(t.db, t.registry, { size: LEDGER_ROWS, log: (m) => log(`seed: ${m}`) });
  const [product] = seeded.productIds;
  const [inventory] = seeded.inventoryIds;
  const one: number[] = [], past: number[] = [], backdated: number[] = [], delivery: number[] = [];
  for (let r = 0; r < RUNS; r++) one.push((await api.call('GET', `/api/stock/balance?product_id=${seeded.productIds[r % 20]}`)).ms);
  for (let r = 0; r < Math.min(RUNS, 10); r++) past.push((await api.call('GET', `/api/stock/balance?inventory_id=${inventory}&as_of=2025-0${1 + (r % 9)}-15`)).ms);
  const lines = seeded.productIds.slice(0, 20);
  // the timed deliveries are standalone: the site must allow them (do_create_type defaults to create_with_so)
  const site = (await api.call('GET', '/api/setting_site?sort=id')).data?.[0];
  if (site) await api.call('PATCH', `/api/setting_site/${site.id}`, { do_create_type: 'create_without_so' });
  else await api.call('POST', '/api/setting_site', { do_create_type: 'create_without_so' });
  // enough stock of the 20 products in the inventory, whatever the generated ledger left there
  const top = await api.call('POST', '/api/goods_receipt', { doc_date: '2026-11-20', inventory_id: inventory, items: lines.map((p) => ({ product_id: p, qty: 100_000, price: 10 })) });
  await api.call('POST', `/api/goods_receipt/${top.data.id}/actions/approve`);
  for (let r = 0; r < RUNS; r++) {
    const gr = await api.call('POST', '/api/goods_receipt', { doc_date: `2025-0${1 + (r % 9)}-1${r % 10}`, inventory_id: inventory, items: [{ product_id: product, qty: 5, price: 12 }] });
    backdated.push((await api.call('POST', `/api/goods_receipt/${gr.data.id}/actions/approve`)).ms);
    const d = await api.call('POST', '/api/delivery_order', { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, inventory_id: inventory, items: lines.map((p) => ({ product_id: p, qty: 1 })) });
    delivery.push((await api.call('POST', `/api/delivery_order/${d.data.id}/actions/approve`)).ms);
  }
  return [
    { name: 'balance of one product in every inventory', target: 20, samples: one },
    { name: 'every product of one inventory as of a past date', target: 100, samples: past },
    { name: 'post a backdated goods receipt', target: 50, samples: backdated },
    { name: 'post a 20-line delivery', target: 50, samples: delivery },
  ];
}

function report(title: string, figures: Figure[]): string[] {
  const out = ['', `== ${title} ==`, `  ${'measure'.padEnd(52)}${'p50 ms'.padEnd(9)}${'p90 ms'.padEnd(9)}target   verdict`];
  for (const f of figures) {
    const m = p50(f.samples);
    out.push(`  ${f.name.padEnd(52)}${m.toFixed(1).padEnd(9)}${p90(f.samples).toFixed(1).padEnd(9)}${`< ${f.target}`.padEnd(9)}${m < f.target ? 'PASS' : 'MISS'}`);
  }
  return out;
}

async function main() {
  // BENCH_ONLY picks one part of the first half (bench-main.ts); none of them is this one
  if (env.BENCH_ONLY) return;
  const dialects: DialectName[] = ['sqlite'];
  const pgUrl = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://127.0.0.1:5432/test';
  if (env.BENCH_POSTGRES !== '0') { env.TEST_DATABASE_URL = pgUrl; dialects.push('postgres'); }
  const lines: string[] = [];
  for (const dialect of dialects) {
    let t: TestApp | null = null;
    try {
      t = await createTestApp(dialect);
      const api = new Api(t);
      const who = await parties(api);
      lines.push(...report(`documents on ${dialect}, ${RUNS} runs each`, await documents(api, who)));
      lines.push(...report(`stock ledger of ${LEDGER_ROWS.toLocaleString('en-US')} movements on ${dialect}, ${RUNS} runs each`, await ledger(t, api, who)));
    } catch (err) {
      lines.push('', `== ${dialect}: could not run: ${(err as Error).message} ==`);
    } finally {
      await t?.close();
    }
  }
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(`[bench:documents] failed: ${(err as Error).message}`);
  process.exit(1);
});
