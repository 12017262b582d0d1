/**
 * Production reports: switched on by `is_use_production_report` (refused and
 * out of the menu while off), produced goods received into stock through a
 * goods receipt made from the report (partly, then whole), produced goods
 * delivered straight from a report, and waste lines with their causes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('production reports on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let wh: number;
  let machine: number;
  let cause: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    wh = await c.inventory(company);
    machine = await c.make('machinery', { code: c.next('M'), name: 'เครื่องเป่าฟิล์ม 1', machine_type: 'extruder', inventory_id: wh });
    cause = await c.make('causes_of_waste', { code: c.next('W'), name_th: 'ฟิล์มขาด' });
  });
  afterAll(async () => t?.close());

  const report = (product: number, qty: number, extra: Row = {}) => c.call('POST', '/api/production_report', c.admin, {
    doc_date: '2026-11-20', your_company_id: company, inventory_id: wh, machinery_id: machine, shift: 'A',
    items: [{ product_id: product, qty, price: 12.5, lot_no: 'L-2611', expiry_date: '2027-11-20' }],
    waste: [{ causes_of_waste_id: cause, product_id: product, qty: 1.5, note: 'เริ่มเครื่อง' }], ...extra,
  });
  const menuPaths = async () => {
    const groups = (await c.ok(c.call('GET', '/api/menu', c.admin))) as unknown as Row[];
    return groups.flatMap((g) => g.submenu.map((s: Row) => s.path));
  };

  it('needs manufactured products on as well: with is_enable_manufactured_product off it is refused and out of the menu', async () => {
    await c.settings({ is_enable_manufactured_product: false, is_use_production_report: true });
    const p = await c.product();
    const res = await report(p, 10);
    expectError(res, 409, 'FEATURE_DISABLED');
    expect(res.json().error.details).toEqual({ setting: 'is_enable_manufactured_product' });
    expect(await menuPaths()).not.toContain('/production_report');
    await c.settings({ is_enable_manufactured_product: true });
    expect(await menuPaths()).toContain('/production_report');
  });

  it('is refused with FEATURE_DISABLED and left out of the menu while is_use_production_report is off', async () => {
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: false });
    const p = await c.product();
    const res = await report(p, 10);
    expectError(res, 409, 'FEATURE_DISABLED');
    expect(res.json().error.details).toEqual({ setting: 'is_use_production_report' });
    expect((await c.ok(c.call('GET', '/api/production_report', c.admin))) as unknown as Row[]).toHaveLength(0);
    expect(await menuPaths()).not.toContain('/production_report');
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: true });
    expect(await menuPaths()).toContain('/production_report');
    await c.ok(report(p, 10), 201);
  });

  it('records what a machine produced and wasted; a goods receipt made from it puts the goods into stock, in part then whole', async () => {
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: true });
    const p = await c.product();
    const pd = await c.ok(report(p, 10), 201);
    expect(pd.doc_no).toMatch(/^PD\d{6}-\d{4}$/);
    expect(pd.machinery_id).toBe(machine);
    expect(pd.waste).toEqual([expect.objectContaining({ causes_of_waste_id: cause, product_id: p, qty: 1.5, note: 'เริ่มเครื่อง' })]);
    // an unapproved report is not a source yet
    expectError(await c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id] }), 409, 'INVALID_TRANSITION');
    await c.ok(c.action('production_report', pd.id, 'approve'));
    const gr1 = await c.ok(c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id], lines: [{ source_line_id: pd.items[0].id, qty: 4 }] }), 201);
    expect(gr1).toMatchObject({ your_company_id: company, status: 'draft' });
    expect(gr1.items[0]).toMatchObject({ product_id: p, qty: 4, price: 12.5, lot_no: 'L-2611', expiry_date: '2027-11-20', source_entity: 'production_report' });
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr1.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('goods_receipt', gr1.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(4);
    expect((await c.ok(c.call('GET', `/api/production_report/${pd.id}`, c.admin))).status).toBe('in_progress');
    expectError(await c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id], lines: [{ source_line_id: pd.items[0].id, qty: 6.5 }] }), 409, 'OVER_PROCESSED');
    const gr2 = await c.ok(c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id] }), 201);
    expect(gr2.items[0].qty).toBe(6);
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr2.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('goods_receipt', gr2.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(10);
    expect((await c.ok(c.call('GET', `/api/production_report/${pd.id}`, c.admin))).status).toBe('completed');
    const lots = (await c.ok(c.balance({ product_id: p, inventory_id: wh, group_by: 'lot' }))) as unknown as Row[];
    expect(lots).toEqual([expect.objectContaining({ lot_no: 'L-2611', expiry_date: '2027-11-20', qty_on_hand: 10 })]);
    // cancelling a receipt gives its quantity back to the report
    await c.ok(c.action('goods_receipt', gr2.id, 'cancel'));
    expect((await c.ok(c.call('GET', `/api/production_report/${pd.id}`, c.admin))).status).toBe('in_progress');
    expect(await c.onHand(p, wh)).toBe(4);
  });

  it('prints as a PDF at most the role\'s production_report_print_times times', async () => {
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: true });
    const pd = await c.ok(report(await c.product(), 2), 201);
    // a staff role prints a production report once (production_report_print_times 1)
    const printer = (await c.staff('pdp', { production_report: { view: true, print: true } })).headers;
    const first = await c.call('GET', `/api/production_report/${pd.id}/pdf`, printer);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expectError(await c.call('GET', `/api/production_report/${pd.id}/pdf`, printer), 403, 'FORBIDDEN');
  });

  it('a delivery order made from a report ships the produced goods from stock, counted separately from receipts', async () => {
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: true });
    const p = await c.product();
    const customer = await c.customer();
    const pd = await c.ok(report(p, 5, { customer_id: customer }), 201);
    await c.ok(c.action('production_report', pd.id, 'approve'));
    const gr = await c.ok(c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id] }), 201);
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('goods_receipt', gr.id, 'approve'));
    const d = await c.ok(c.call('POST', '/api/delivery_order/from/production_report', c.admin, { ids: [pd.id], lines: [{ source_line_id: pd.items[0].id, qty: 3 }] }), 201);
    expect(d).toMatchObject({ customer_id: customer, your_company_id: company });
    expect(d.items[0]).toMatchObject({ product_id: p, qty: 3, lot_no: 'L-2611', source_entity: 'production_report' });
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('delivery_order', d.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(2);
    expectError(await c.call('POST', '/api/delivery_order/from/production_report', c.admin, { ids: [pd.id], lines: [{ source_line_id: pd.items[0].id, qty: 2.5 }] }), 409, 'OVER_PROCESSED');
    // the report's status is the receipts' business: delivering from it leaves it completed
    expect((await c.ok(c.call('GET', `/api/production_report/${pd.id}`, c.admin))).status).toBe('completed');
    // deliveries from a sales order still work beside it
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh, items: [{ product_id: p, qty: 1, price: 20 }] }), 201);
    await c.ok(c.action('sales_order', so.id, 'approve'));
    const d2 = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id] }), 201);
    expect(d2.items[0].source_entity).toBe('sales_order');
  });

  it('a delivery order made from a report with no customer is a draft waiting for one (issue 44 §10)', async () => {
    await c.settings({ is_enable_manufactured_product: true, is_use_production_report: true });
    const p = await c.product();
    const pd = await c.ok(report(p, 4), 201);
    expect(pd.customer_id ?? null).toBeNull();
    await c.ok(c.action('production_report', pd.id, 'approve'));
    const gr = await c.ok(c.call('POST', '/api/goods_receipt/from/production_report', c.admin, { ids: [pd.id] }), 201);
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('goods_receipt', gr.id, 'approve'));
    const d = await c.ok(c.call('POST', '/api/delivery_order/from/production_report', c.admin, { ids: [pd.id] }), 201);
    expect(d.customer_id ?? null).toBeNull();
    expect(d.items[0]).toMatchObject({ product_id: p, qty: 4, source_entity: 'production_report' });
    // the stock leaves once the delivery names who receives it
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: wh }));
    expectError(await c.action('delivery_order', d.id, 'approve'), 400, 'VALIDATION_FAILED');
    const customer = await c.customer();
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { customer_id: customer }));
    await c.ok(c.action('delivery_order', d.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(0);
  });
});
