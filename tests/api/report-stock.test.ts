/**
 * The stock reports of issue 32 from report files, on both dialects, against
 * figures computed by hand from a few postings; the caller's inventory limit
 * holds in rows, totals, exports, PDF and chart data; flags gate export and
 * print; bad parameters answer 400 with a code.
 *
 * Postings: inventory A receives P1 (class A) 10 @ 5.00 lot L1 expiring 2026-12-15 and P2 (class B) 4 @ 2.50
 * on 2026-11-10; inventory B receives P1 20 @ 6.00 lot L2 expiring 2027-06-30 the same day; A delivers
 * 3 of P1 on 2026-11-20. Moving average: the delivery takes round(5000 × 3 / 10) = 1500 satang.
 *   P1/A: 7, 35.00   P1/B: 20, 120.00   P2/A: 4, 10.00   total 31, 165.00
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, type Headers } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { takeSnapshot } from '../../server/stock/stock-snapshots.ts';

type Row = Record<string, any>;

describe.each(testDialects())('stock report files on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let a: number;
  let b: number;
  let codes: Record<string, string>;
  let clerk: Headers;
  let viewer: Headers;
  const get = async (url: string, as?: Headers) => {
    const res = await c.call('GET', url, as ?? c.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { columns: Row[]; rows: Row[]; totals: Row }; meta: { total_count: number } };
  };
  const pick = (rows: Row[], keys: string[]) => rows.map((r) => Object.fromEntries(keys.map((k) => [k, r[k]])));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    await c.settings({ do_create_type: 'create_without_so' });
    const company = await c.company();
    const customer = await c.customer();
    a = await c.inventory(company);
    b = await c.inventory(company);
    const p1 = await c.product({ product_class: 'class_a', is_track_lot: true, is_track_expiry: true, shelf_life_days: 365 });
    const p2 = await c.product({ product_class: 'class_b' });
    const inv = async (id: number) => (await c.call('GET', `/api/inventory/${id}`, c.admin)).json().data.code as string;
    const prod = async (id: number) => (await c.call('GET', `/api/product/${id}`, c.admin)).json().data.code as string;
    codes = { A: await inv(a), B: await inv(b), P1: await prod(p1), P2: await prod(p2) };
    await c.posted('goods_receipt', { inventory_id: a, doc_date: '2026-11-10' }, [{ product_id: p1, qty: 10, price: 5, lot_no: 'L1', expiry_date: '2026-12-15' }, { product_id: p2, qty: 4, price: 2.5 }]);
    await c.posted('goods_receipt', { inventory_id: b, doc_date: '2026-11-10' }, [{ product_id: p1, qty: 20, price: 6, lot_no: 'L2', expiry_date: '2027-06-30' }]);
    await c.posted('delivery_order', { inventory_id: a, customer_id: customer, your_company_id: company, doc_date: '2026-11-20' }, [{ product_id: p1, qty: 3, lot_no: 'L1', expiry_date: '2026-12-15' }]);
    const flags = { view: true, export: true, print: true };
    const reports = ['stock_balance_all', 'transaction_dashboard', 'inventory_stock_balance'];
    clerk = (await c.staff('clerk', Object.fromEntries(reports.map((r) => [r, flags])), { inventory: [a] })).headers;
    viewer = (await c.staff('viewer', { stock_balance_all: { view: true } })).headers;
  }, 120_000);
  afterAll(async () => t?.close());

  it('stock_balance_all: on hand per product and inventory, moving-average value, totals over all rows', async () => {
    const res = await get('/api/report/stock_balance_all');
    expect(pick(res.data.rows, ['product_code', 'inventory_code', 'qty', 'stock_value'])).toEqual([
      { product_code: codes.P1, inventory_code: codes.A, qty: 7, stock_value: 35 },
      { product_code: codes.P1, inventory_code: codes.B, qty: 20, stock_value: 120 },
      { product_code: codes.P2, inventory_code: codes.A, qty: 4, stock_value: 10 },
    ]);
    expect(res.data.totals).toEqual({ qty: 31, stock_value: 165 });
    expect(res.meta.total_count).toBe(3);
    expect(res.data.columns.map((x) => x.key)).toContain('stock_value');
    // a later page still carries the totals and the count of every row
    const page2 = await get('/api/report/stock_balance_all?limit=1&page=2');
    expect(pick(page2.data.rows, ['product_code', 'inventory_code'])).toEqual([{ product_code: codes.P1, inventory_code: codes.B }]);
    expect(page2.data.totals).toEqual({ qty: 31, stock_value: 165 });
    expect(page2.meta.total_count).toBe(3);
    const past = await get('/api/report/stock_balance_all?limit=10&page=9');
    expect(past.data.rows).toEqual([]);
    expect(past.data.totals).toEqual({ qty: 31, stock_value: 165 });
    expect((await get('/api/report/stock_balance_all?limit=1000')).data.rows).toHaveLength(3);
  });

  it('class reports keep only their product class; inventory_stock_balance one inventory (also /{id})', async () => {
    expect(pick((await get('/api/report/stock_balance_class_a')).data.rows, ['product_code', 'inventory_code', 'qty'])).toEqual([
      { product_code: codes.P1, inventory_code: codes.A, qty: 7 }, { product_code: codes.P1, inventory_code: codes.B, qty: 20 },
    ]);
    expect(pick((await get('/api/report/stock_balance_class_b')).data.rows, ['product_code', 'qty'])).toEqual([{ product_code: codes.P2, qty: 4 }]);
    expect((await get('/api/report/stock_balance_assets')).data.rows).toEqual([]);
    const one = await get(`/api/report/inventory_stock_balance?selectedInventory=${b}`);
    expect(pick(one.data.rows, ['product_code', 'inventory_code', 'qty'])).toEqual([{ product_code: codes.P1, inventory_code: codes.B, qty: 20 }]);
    expect((await get(`/api/report/inventory_stock_balance/${b}`)).data.rows).toEqual(one.data.rows);
    expectError(await c.call('GET', '/api/report/inventory_stock_balance', c.admin), 400, 'INVALID_QUERY');
  });

  it('backdate_stock_balance sums the ledger up to the end of the business day, with or without a month-end snapshot', async () => {
    const check = async () => {
      const before = await get('/api/report/backdate_stock_balance?as_of=2026-11-15');
      expect(pick(before.data.rows, ['product_code', 'inventory_code', 'qty'])).toEqual([
        { product_code: codes.P1, inventory_code: codes.A, qty: 10 },
        { product_code: codes.P1, inventory_code: codes.B, qty: 20 },
        { product_code: codes.P2, inventory_code: codes.A, qty: 4 },
      ]);
      const after = await get('/api/report/backdate_stock_balance?as_of=2026-11-20');
      expect(after.data.totals).toEqual({ qty: 31 });
      expect(pick(after.data.rows, ['product_code', 'inventory_code', 'qty'])[0]).toEqual({ product_code: codes.P1, inventory_code: codes.A, qty: 7 });
      expect((await get('/api/report/backdate_stock_balance?as_of=2026-11-09')).data.rows).toEqual([]);
    };
    await check();
    // a snapshot between the postings: the answer is its totals plus the ledger since, the same figures
    await takeSnapshot(t.db, t.registry.held('stockMovements'), '2026-11-12');
    await check();
    expect((await get(`/api/report/backdate_stock_balance/${b}?as_of=2026-11-20`)).data.totals).toEqual({ qty: 20 });
  });

  it('expiration_report: lots on hand expiring by the end of the month; stock_on_hand per lot', async () => {
    const exp = await get('/api/report/expiration_report?expirationMonth=2026-12');
    expect(pick(exp.data.rows, ['product_code', 'inventory_code', 'lot_no', 'expiry_date', 'qty'])).toEqual([
      { product_code: codes.P1, inventory_code: codes.A, lot_no: 'L1', expiry_date: '2026-12-15', qty: 7 },
    ]);
    expect((await get('/api/report/expiration_report?expirationMonth=2026-11')).data.rows).toEqual([]);
    const lots = await get(`/api/report/stock_on_hand/${a}?isFilterStock=true`);
    expect(pick(lots.data.rows, ['product_code', 'lot_no', 'qty'])).toEqual([{ product_code: codes.P1, lot_no: 'L1', qty: 7 }, { product_code: codes.P2, lot_no: '', qty: 4 }]);
  });

  it('transaction_dashboard: in and out per business day', async () => {
    const res = await get('/api/report/transaction_dashboard?date_from=2026-11-01&date_to=2026-11-30');
    expect(pick(res.data.rows, ['movement_day', 'in_count', 'out_count', 'in_value', 'out_value', 'out_qty'])).toEqual([
      { movement_day: '2026-11-10', in_count: 3, out_count: 0, in_value: 180, out_value: 0, out_qty: 0 },
      { movement_day: '2026-11-20', in_count: 0, out_count: 1, in_value: 0, out_value: 15, out_qty: 3 },
    ]);
    const yearly = await get('/api/report/export_summary?selectYear=2026');
    expect(pick(yearly.data.rows, ['month', 'doc_count', 'customer_count', 'qty'])).toEqual([{ month: '2026-11', doc_count: 1, customer_count: 1, qty: 3 }]);
    expect((await c.call('GET', '/api/report/export_summary/year', c.admin)).json().data).toEqual([2026]);
    expect((await c.call('GET', '/api/report/production_overview/year', c.admin)).json().data).toEqual([]);
  });

  it('a user limited to inventory A sees only A: rows, totals, export, PDF and chart data', async () => {
    const res = await get('/api/report/stock_balance_all', clerk);
    expect(pick(res.data.rows, ['product_code', 'inventory_code', 'qty'])).toEqual([
      { product_code: codes.P1, inventory_code: codes.A, qty: 7 }, { product_code: codes.P2, inventory_code: codes.A, qty: 4 },
    ]);
    expect(res.data.totals).toEqual({ qty: 11, stock_value: 45 });
    const csv = await c.call('GET', '/api/report/stock_balance_all/export?format=csv', clerk);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(codes.A);
    expect(csv.body).not.toContain(codes.B);
    expect(csv.body.trim().split('\r\n').at(-1)).toContain('45');
    const xlsx = await c.call('GET', '/api/report/stock_balance_all/export?format=xlsx', clerk);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const pdf = await c.call('GET', '/api/report/stock_balance_all/pdf', clerk);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    const chart = await get('/api/report/transaction_dashboard?date_from=2026-11-01&date_to=2026-11-30', clerk);
    expect(chart.data.totals).toMatchObject({ in_count: 2, in_value: 60, out_value: 15 });
    // another inventory asked for by name gives nothing, not its rows
    expect((await get(`/api/report/inventory_stock_balance/${b}`, clerk)).data.rows).toEqual([]);
  });

  it('role flags gate view, export and print; the list shows only viewable reports', async () => {
    const list = (await c.call('GET', '/api/report', viewer)).json().data as Row[];
    expect(list.map((r) => r.name)).toEqual(['stock_balance_all']);
    expect(list[0]).toMatchObject({ name: 'stock_balance_all', label: { th: expect.any(String) }, parameters: expect.any(Array) });
    expectError(await c.call('GET', '/api/report/stock_balance_all/export?format=xlsx', viewer), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/report/stock_balance_all/pdf', viewer), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/report/stock_balance_class_a', viewer), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/report/no_such_report', c.admin), 404, 'NOT_FOUND');
    expect((await c.call('GET', '/api/report/collection_summary', c.admin)).statusCode).toBe(200);
  });

  it('bad parameters answer 400 INVALID_QUERY with a Thai text', async () => {
    for (const url of ['stock_balance_all?selectedInventory=abc', 'stock_balance_all?nonsense=1', 'backdate_stock_balance?as_of=2026-13-01',
      'stock_balance_all?limit=1001', 'stock_balance_all?page=0', 'transaction_dashboard?date_from=2026-11-30&date_to=2026-11-01',
      'expiration_report?expirationMonth=2026-1', 'stock_balance_all?sort=nope', 'stock_balance_all/export?format=pdf']) {
      const res = await c.call('GET', `/api/report/${url}`, { ...c.admin, 'accept-language': 'th' });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      expectError(res, 400, 'INVALID_QUERY');
      expect(res.json().error.message, url).toMatch(/[\u0E00-\u0E7F]/);
    }
  });
});
