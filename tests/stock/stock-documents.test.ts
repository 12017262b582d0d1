/**
 * The stock documents on the real schemas: a purchase order received in part
 * and then whole, deliveries against a sales order that books stock, refusals
 * when stock is short (also 50 at once), a transfer that moves both legs or
 * neither, cancellation writing reversals, and locations held to their inventory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('stock documents on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    // these tests deliver without a sales order too (do_create_type defaults to create_with_so)
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  it('receives a purchase order in part, then the rest; over-receipt is refused', async () => {
    const p = await c.product();
    const supplier = await c.supplier();
    const po = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: supplier, your_company_id: company, items: [{ product_id: p, qty: 10, price: 50 }] }), 201);
    await c.ok(c.action('purchase_order', po.id, 'approve'));
    const line = po.items[0].id;
    const gr1 = await c.ok(c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id], lines: [{ source_line_id: line, qty: 4 }] }), 201);
    expect(gr1).toMatchObject({ supplier_id: supplier, status: 'draft' });
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr1.id}`, c.admin, { inventory_id: wh[0] }));
    await c.ok(c.action('goods_receipt', gr1.id, 'approve'));
    expect(await c.onHand(p, wh[0]!)).toBe(4);
    expect((await c.ok(c.call('GET', `/api/purchase_order/${po.id}`, c.admin))).status).toBe('partially_received');
    expectError(await c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id], lines: [{ source_line_id: line, qty: 7 }] }), 409, 'OVER_PROCESSED');
    const gr2 = await c.ok(c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id] }), 201);
    expect(gr2.items[0]).toMatchObject({ qty: 6, price: 50 });
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr2.id}`, c.admin, { inventory_id: wh[0] }));
    await c.ok(c.action('goods_receipt', gr2.id, 'approve'));
    expect(await c.onHand(p, wh[0]!)).toBe(10);
    expect((await c.ok(c.call('GET', `/api/purchase_order/${po.id}`, c.admin))).status).toBe('received');
    const moves = await c.ok(c.call('GET', `/api/stock_movement?filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'goods_receipt' }, product_id: { _eq: p } }))}`, c.admin));
    expect((moves as unknown as Row[]).map((m) => [m.direction, m.qty, m.doc_id, m.unit_cost])).toEqual(expect.arrayContaining([['in', 4, gr1.id, 50], ['in', 6, gr2.id, 50]]));
  });

  it('a receipt from a purchase order costs each unit at the order\'s net price: discounts and included VAT out (netPrice)', async () => {
    const p = await c.product();
    const supplier = await c.supplier();
    // 3 × 100 = 300, line discount 10 % → 270, document discount 9 → 261 before VAT: 87.00 a unit, not 100
    const discounted = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: supplier, your_company_id: company, vat_type: 'exclude', discount_amount: 9,
      items: [{ product_id: p, qty: 3, price: 100, discount_percent: 10 }] }), 201);
    // 2 × 107 with VAT included = 214, of which VAT 14: 100.00 a unit before VAT
    const vatIncluded = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: supplier, your_company_id: company, vat_type: 'include',
      items: [{ product_id: p, qty: 2, price: 107 }] }), 201);
    for (const po of [discounted, vatIncluded]) await c.ok(c.action('purchase_order', po.id, 'approve'));
    expect(Number(discounted.amount_before_vat)).toBe(261);
    const gr = await c.ok(c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [discounted.id, vatIncluded.id] }), 201);
    expect(gr.items.map((l: Row) => [l.qty, l.price])).toEqual([[3, 87], [2, 100]]);
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { inventory_id: wh[1] }));
    await c.ok(c.action('goods_receipt', gr.id, 'approve'));
    const moves = await c.ok(c.call('GET', `/api/stock_movement?filter=${encodeURIComponent(JSON.stringify({ doc_id: { _eq: gr.id }, doc_entity: { _eq: 'goods_receipt' } }))}&sort=id`, c.admin));
    expect((moves as unknown as Row[]).map((m) => [m.qty, m.unit_cost])).toEqual([[3, 87], [2, 100]]);
    // a part of a line costs the same per unit
    const again = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: supplier, your_company_id: company, vat_type: 'exclude', discount_amount: 9,
      items: [{ product_id: p, qty: 3, price: 100, discount_percent: 10 }] }), 201);
    await c.ok(c.action('purchase_order', again.id, 'approve'));
    const part = await c.ok(c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [again.id], lines: [{ source_line_id: again.items[0].id, qty: 1 }] }), 201);
    expect(part.items.map((l: Row) => [l.qty, l.price])).toEqual([[1, 87]]);
  });

  it('an approved sales order books stock; delivering releases it; a short delivery is refused naming product, inventory and shortfall', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 8, price: 100 }]);
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh[0], items: [{ product_id: p, qty: 5, price: 150 }] }), 201);
    await c.ok(c.action('sales_order', so.id, 'approve'));
    expect(await c.ok(c.balance({ product_id: p, inventory_id: wh[0]! }))).toEqual([{ product_id: p, inventory_id: wh[0], qty_on_hand: 8, qty_booked: 5, qty_available: 3 }]);
    const d1 = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty: 2 }] }), 201);
    await c.ok(c.call('PATCH', `/api/delivery_order/${d1.id}`, c.admin, { inventory_id: wh[0] }));
    await c.ok(c.action('delivery_order', d1.id, 'approve'));
    expect(await c.ok(c.balance({ product_id: p, inventory_id: wh[0]! }))).toEqual([{ product_id: p, inventory_id: wh[0], qty_on_hand: 6, qty_booked: 3, qty_available: 3 }]);
    expect((await c.ok(c.call('GET', `/api/sales_order/${so.id}`, c.admin))).status).toBe('in_progress');
    const big = await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 6.5 }]);
    const res = await c.action('delivery_order', big.id, 'approve');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ product_id: p, inventory_id: wh[0], on_hand: 6, asked: 6.5, shortfall: 0.5, line: 'items.0' });
    expect((await c.ok(c.call('GET', `/api/delivery_order/${big.id}`, c.admin))).status).toBe('draft');
    // cancelling the delivery puts the stock back and books it again; cancelling an order releases its booking
    await c.ok(c.action('delivery_order', d1.id, 'cancel'));
    expect(await c.ok(c.balance({ product_id: p, inventory_id: wh[0]! }))).toEqual([{ product_id: p, inventory_id: wh[0], qty_on_hand: 8, qty_booked: 5, qty_available: 3 }]);
    const so2 = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh[0], items: [{ product_id: p, qty: 1, price: 150 }] }), 201);
    await c.ok(c.action('sales_order', so2.id, 'approve'));
    expect((await c.ok(c.balance({ product_id: p, inventory_id: wh[0]! })))[0].qty_booked).toBe(6);
    await c.ok(c.action('sales_order', so2.id, 'cancel'));
    expect((await c.ok(c.balance({ product_id: p, inventory_id: wh[0]! })))[0].qty_booked).toBe(5);
  });

  it('50 parallel deliveries of 1 against 10 on hand: exactly 10 post, the balance ends at 0 and is never negative', async () => {
    const p = await c.product();
    await c.receive(wh[1]!, [{ product_id: p, qty: 10, price: 20 }]);
    const drafts: Row[] = [];
    for (let i = 0; i < 50; i++) drafts.push(await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[1] }, [{ product_id: p, qty: 1 }]));
    const results = await Promise.all(drafts.map((d) => c.action('delivery_order', d.id, 'approve')));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode !== 200).map((r) => r.json().error.code)).toEqual(Array(40).fill('INSUFFICIENT_STOCK'));
    expect(await c.onHand(p, wh[1]!)).toBe(0);
    const out = await c.ok(c.call('GET', `/api/stock_movement?limit=500&filter=${encodeURIComponent(JSON.stringify({ product_id: { _eq: p }, direction: { _eq: 'out' } }))}`, c.admin));
    expect(out).toHaveLength(10);
    const raw = await t.db.kysely.selectFrom('stock_balance').select('qty').where('product_id', '=', p).execute();
    expect(raw.map((r) => Number(r.qty))).toEqual([0]);
  });

  it('a transfer moves both legs or neither', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 3, price: 10 }]);
    const ok = await c.posted('internal_product_transfer', { from_inventory_id: wh[0], to_inventory_id: wh[1] }, [{ product_id: p, qty: 2 }]);
    expect(ok.status).toBe('approved');
    expect([await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!)]).toEqual([1, 2]);
    // the second line is short: the first line's legs are not written either
    const q = await c.product();
    await c.receive(wh[0]!, [{ product_id: q, qty: 5, price: 10 }]);
    const bad = await c.draft('internal_product_transfer', { from_inventory_id: wh[0], to_inventory_id: wh[1] }, [{ product_id: q, qty: 5 }, { product_id: p, qty: 2 }]);
    expectError(await c.action('internal_product_transfer', bad.id, 'approve'), 409, 'INSUFFICIENT_STOCK');
    expect([await c.onHand(q, wh[0]!), await c.onHand(q, wh[1]!), await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!)]).toEqual([5, 0, 1, 2]);
    // cancelling the first transfer brings both legs back
    await c.ok(c.action('internal_product_transfer', ok.id, 'cancel'));
    expect([await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!)]).toEqual([3, 0]);
  });

  it('cancelling a receipt whose stock was delivered is refused naming the line; the ledger is only appended to', async () => {
    const kept = await c.product();
    const p = await c.product();
    const gr = await c.receive(wh[0]!, [{ product_id: kept, qty: 2, price: 5 }, { product_id: p, qty: 4, price: 10 }]);
    await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 3 }]);
    const refused = await c.action('goods_receipt', gr.id, 'cancel');
    expectError(refused, 409, 'INSUFFICIENT_STOCK');
    // the receipt's second line is the one whose stock left
    expect(refused.json().error.details.line).toBe('items.1');
    expect(refused.json().error.message).toMatch(/^items\.1: only 1 of /);
    expect([await c.onHand(kept, wh[0]!), await c.onHand(p, wh[0]!)]).toEqual([2, 1]);
    const m = await c.ok(c.call('GET', `/api/stock_movement?limit=1&filter=${encodeURIComponent(JSON.stringify({ product_id: { _eq: p } }))}`, c.admin));
    expectError(await c.call('PATCH', `/api/stock_movement/${(m as unknown as Row[])[0]!.id}`, c.admin, { qty: 100 }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('a location must belong to the inventory it is used with', async () => {
    const p = await c.product();
    const other = await c.location(wh[1]!);
    const mine = await c.location(wh[0]!);
    const res = await c.call('POST', '/api/goods_receipt', c.admin, { inventory_id: wh[0], product_location_id: other, items: [{ product_id: p, qty: 1 }] });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields.map((f: Row) => f.field)).toEqual(['product_location_id']);
    const line = await c.call('POST', '/api/delivery_order', c.admin, { customer_id: customer, your_company_id: company, inventory_id: wh[0], items: [{ product_id: p, qty: 1, product_location_id: other }] });
    expect(line.json().error.details.fields.map((f: Row) => f.field)).toEqual(['items.0.product_location_id']);
    const t1 = await c.call('POST', '/api/internal_product_transfer', c.admin, { from_inventory_id: wh[0], to_inventory_id: wh[1], to_location_id: mine, items: [{ product_id: p, qty: 1 }] });
    expect(t1.json().error.details.fields.map((f: Row) => f.field)).toEqual(['to_location_id']);
    await c.receive(wh[0]!, [{ product_id: p, qty: 2, product_location_id: mine }]);
    expect(await c.onHand(p, wh[0]!)).toBe(2);
  });

  it('a direct ledger entry is an adjustment held to the same balance rules', async () => {
    const p = await c.product();
    expectError(await c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh[0]!, { direction: 'out', movement_type: 'adjustment', qty: 1 })), 409, 'INSUFFICIENT_STOCK');
    await c.ok(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh[0]!, { movement_type: 'adjustment', qty: 2.5 })), 201);
    expect(await c.onHand(p, wh[0]!)).toBe(2.5);
    expectError(await c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh[0]!, { doc_entity: 'goods_receipt', doc_id: 1 })), 400, 'READ_ONLY_FIELD');
  });

  it('keeps lots apart, answers balances by lot and as of a past day, values stock at moving-average cost, and takes the earliest expiry first', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 2, price: 100, lot_no: 'L1', expiry_date: '2027-01-31' }], { doc_date: '2026-10-01' });
    await c.receive(wh[0]!, [{ product_id: p, qty: 2, price: 100, lot_no: 'L2', expiry_date: '2027-03-31' }, { product_id: p, qty: 2, price: 200, lot_no: 'L2', expiry_date: '2027-03-31' }], { doc_date: '2026-10-05' });
    expect(await c.ok(c.balance({ product_id: p, group_by: 'lot' }))).toEqual([
      { product_id: p, inventory_id: wh[0], lot_no: 'L1', expiry_date: '2027-01-31', qty_on_hand: 2, qty_booked: 0, qty_available: 2 },
      { product_id: p, inventory_id: wh[0], lot_no: 'L2', expiry_date: '2027-03-31', qty_on_hand: 4, qty_booked: 0, qty_available: 4 },
    ]);
    expect(await c.onHand(p, wh[0]!, '2026-10-04')).toBe(2);
    expect(await c.onHand(p, wh[0]!, '2026-09-30')).toBe(0);
    // out of lot L2 (2 at 100 and 2 at 200): the moving average is 150
    const d = await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0], doc_date: '2026-10-06' }, [{ product_id: p, qty: 1, lot_no: 'L2', expiry_date: '2027-03-31' }]);
    const out = await c.ok(c.call('GET', `/api/stock_movement?filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'delivery_order' }, doc_id: { _eq: d.id } }))}`, c.admin));
    expect((out as unknown as Row[]).map((m) => [m.direction, m.qty, m.lot_no, m.unit_cost])).toEqual([['out', 1, 'L2', 150]]);
    // a line that names no lot takes the earliest expiry first (FEFO), over as many lots as it needs
    const fefo = await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 3 }]);
    const taken = await c.ok(c.call('GET', `/api/stock_movement?sort=id&filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'delivery_order' }, doc_id: { _eq: fefo.id } }))}`, c.admin));
    expect((taken as unknown as Row[]).map((m) => [m.lot_no, m.qty])).toEqual([['L1', 2], ['L2', 1]]);
    expect((await c.ok(c.balance({ product_id: p, group_by: 'lot' }))).map((r: Row) => [r.lot_no, r.qty_on_hand])).toEqual([['L1', 0], ['L2', 2]]);
    const short = await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 1.5 }, { product_id: p, qty: 1 }]);
    const res = await c.action('delivery_order', short.id, 'approve');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ line: 'items.1', on_hand: 0.5, shortfall: 0.5 });
    // a transfer carries the lots it takes into the other inventory
    await c.posted('internal_product_transfer', { from_inventory_id: wh[0], to_inventory_id: wh[1] }, [{ product_id: p, qty: 2 }]);
    expect((await c.ok(c.balance({ product_id: p, group_by: 'lot', inventory_id: wh[1]! }))).map((r: Row) => [r.lot_no, r.expiry_date, r.qty_on_hand])).toEqual([['L2', '2027-03-31', 2]]);
  });

  it('stock_balance_all shows the booked and available quantities, the same as the balance API, in either booking mode (issue 44 §10)', async () => {
    const p = await c.product();
    await c.receive(wh[1]!, [{ product_id: p, qty: 10, price: 100 }]);
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh[1], items: [{ product_id: p, qty: 4, price: 150 }] }), 201);
    await c.ok(c.action('sales_order', so.id, 'approve'));
    await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[1] }, [{ product_id: p, qty: 1.5 }]);
    const row = async () => {
      const got = await c.ok(c.call('GET', `/api/report/stock_balance_all?selectedInventory=${wh[1]}&limit=1000`, c.admin)) as { rows: Row[] };
      const r = got.rows.find((x) => Number(x.product_id) === p)!;
      const api = (await c.ok(c.balance({ product_id: p, inventory_id: wh[1]! })))[0];
      expect([Number(r.qty), Number(r.qty_booked), Number(r.qty_available)]).toEqual([api.qty_on_hand, api.qty_booked, api.qty_available]);
      return [Number(r.qty), Number(r.qty_booked), Number(r.qty_available)];
    };
    // so: the open order books 4
    expect(await row()).toEqual([10, 4, 6]);
    // do: the draft delivery books 1.5
    await c.settings({ stock_balance_sub_booked_table_type: 'do' });
    try {
      expect(await row()).toEqual([10, 1.5, 8.5]);
    } finally {
      await c.settings({ stock_balance_sub_booked_table_type: 'so' });
    }
  });
});
