/**
 * The purchasing and delivery site settings each change what the server does:
 * do_create_type, is_po_allow_duplicate_product, is_select_multi_inventory_gr,
 * and the pair is_enable_auto_create_gr_in_po + is_auto_create_gr_in_po.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;
const ALL = { view: true, edit: true, print: true, email: true, export: true };

describe.each(testDialects())('stock site settings on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  const fieldsOf = (res: { json(): any }) => res.json().error.details.fields.map((f: Row) => [f.field, f.code]);

  it('do_create_type: with create_with_so (the default) a delivery order line must come from a sales order', async () => {
    await c.settings({ do_create_type: 'create_with_so' });
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 5 }]);
    const standalone = { doc_date: '2026-11-20', customer_id: customer, your_company_id: company, inventory_id: wh[0], items: [{ product_id: p, qty: 1 }] };
    const res = await c.call('POST', '/api/delivery_order', c.admin, standalone);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(res)).toEqual([['items.0.source_line_id', 'with_so_only']]);
    // from a sales order: fine, partial deliveries too
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh[0], items: [{ product_id: p, qty: 3, price: 10 }] }), 201);
    await c.ok(c.action('sales_order', so.id, 'approve'));
    const d = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty: 2 }] }), 201);
    // adding a line of its own to it is refused too
    const added = await c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { items: [{ id: d.items[0].id, product_id: p, qty: 2, source_line_id: so.items[0].id, source_entity: 'sales_order' }, { product_id: p, qty: 1 }] });
    expect(fieldsOf(added)).toEqual([['items.1.source_line_id', 'with_so_only']]);
    await c.settings({ do_create_type: 'create_without_so' });
    await c.ok(c.call('POST', '/api/delivery_order', c.admin, standalone), 201);
  });

  it('is_enable_product_expired: on, a receipt line of a lot- or expiry-tracked product needs its lot and expiry to post; off, it does not', async () => {
    const tracked = await c.product({ is_track_lot: true, is_track_expiry: true, shelf_life_days: 365 });
    const plain = await c.product();
    const receipt = (lines: Record<string, unknown>[]) => c.draft('goods_receipt', { inventory_id: wh[0] }, lines as never);
    await c.settings({ is_enable_product_expired: true });
    try {
      const bare = await receipt([{ product_id: plain, qty: 1, price: 5 }, { product_id: tracked, qty: 2, price: 5 }]);
      const refused = await c.action('goods_receipt', bare.id, 'approve');
      expectError(refused, 400, 'VALIDATION_FAILED');
      expect(fieldsOf(refused)).toEqual([['items.1.lot_no', 'required'], ['items.1.expiry_date', 'required']]);
      expect(await c.onHand(tracked, wh[0]!)).toBe(0);
      const full = await receipt([{ product_id: tracked, qty: 2, price: 5, lot_no: 'LOT-A', expiry_date: '2027-06-30' }]);
      await c.ok(c.action('goods_receipt', full.id, 'approve'));
      expect(await c.onHand(tracked, wh[0]!)).toBe(2);
    } finally {
      await c.settings({ is_enable_product_expired: false });
    }
    // off: the same bare line posts
    const bare = await receipt([{ product_id: tracked, qty: 1, price: 5 }]);
    await c.ok(c.action('goods_receipt', bare.id, 'approve'));
    expect(await c.onHand(tracked, wh[0]!)).toBe(3);
  });

  it('is_po_allow_duplicate_product: off refuses a product on two lines of a purchase order; on allows it', async () => {
    const p = await c.product();
    const body = { supplier_id: await c.supplier(), your_company_id: company, items: [{ product_id: p, qty: 1, price: 5 }, { product_id: await c.product(), qty: 1, price: 5 }, { product_id: p, qty: 2, price: 5 }] };
    await c.settings({ is_po_allow_duplicate_product: false });
    const res = await c.call('POST', '/api/purchase_order', c.admin, body);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(res)).toEqual([['items.2.product_id', 'duplicate']]);
    await c.settings({ is_po_allow_duplicate_product: true });
    expect((await c.ok(c.call('POST', '/api/purchase_order', c.admin, body), 201)).items).toHaveLength(3);
  });

  it('is_select_multi_inventory_gr: off keeps a receipt to its header inventory; on lets lines receive into their own', async () => {
    const p = await c.product();
    const lines = [{ product_id: p, qty: 2 }, { product_id: p, qty: 3, inventory_id: wh[1] }];
    await c.settings({ is_select_multi_inventory_gr: false });
    const res = await c.call('POST', '/api/goods_receipt', c.admin, { doc_date: '2026-11-20', inventory_id: wh[0], items: lines });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(res)).toEqual([['items.1.inventory_id', 'single_inventory']]);
    await c.settings({ is_select_multi_inventory_gr: true });
    await c.posted('goods_receipt', { inventory_id: wh[0] }, lines as never);
    expect(await c.onHand(p, wh[0]!)).toBe(2);
    expect(await c.onHand(p, wh[1]!)).toBe(3);
    // a user limited to some inventories cannot receive a line into another
    const detail = Object.fromEntries(['goods_receipt', 'product', 'inventory', 'stock_balance'].map((k) => [k, ALL]));
    const clerk = (await c.staff('gr', detail, { inventory: [wh[0]!, wh[1]!] })).headers;
    await c.ok(c.call('POST', '/api/goods_receipt', clerk, { doc_date: '2026-11-20', inventory_id: wh[0], items: lines }), 201);
    const other = await c.call('POST', '/api/goods_receipt', clerk, { doc_date: '2026-11-20', inventory_id: wh[0], items: [{ product_id: p, qty: 1, inventory_id: wh[2] }] });
    expectError(other, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(other)).toEqual([['items.0.inventory_id', 'link']]);
  });

  it('approving a purchase order makes a draft goods receipt only when both auto-create settings are on', async () => {
    const approvedPo = async () => {
      const po = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: await c.supplier(), your_company_id: company, items: [{ product_id: await c.product(), qty: 4, price: 5 }] }), 201);
      await c.ok(c.action('purchase_order', po.id, 'approve'));
      return po;
    };
    const draftFor = async (po: Row): Promise<Row | undefined> => {
      // the receipt is made just after the approval commits
      for (let i = 0; i < 40; i++) {
        const rows = (await c.ok(c.call('GET', `/api/goods_receipt?filter=${encodeURIComponent(JSON.stringify({ supplier_id: { _eq: po.supplier_id } }))}`, c.admin))) as unknown as Row[];
        if (rows.length) return c.ok(c.call('GET', `/api/goods_receipt/${rows[0]!.id}`, c.admin));
        await new Promise((r) => setTimeout(r, 50));
      }
      return undefined;
    };
    await c.settings({ is_enable_auto_create_gr_in_po: true, is_auto_create_gr_in_po: false });
    expect(await draftFor(await approvedPo())).toBeUndefined();
    await c.settings({ is_enable_auto_create_gr_in_po: false, is_auto_create_gr_in_po: true });
    expect(await draftFor(await approvedPo())).toBeUndefined();
    await c.settings({ is_enable_auto_create_gr_in_po: true, is_auto_create_gr_in_po: true });
    const po = await approvedPo();
    const gr = await draftFor(po);
    expect(gr).toMatchObject({ status: 'draft', supplier_id: po.supplier_id });
    expect(gr!.items).toEqual([expect.objectContaining({ source_entity: 'purchase_order', source_line_id: po.items[0].id, qty: 4, price: 5 })]);
  }, 30_000);
});
