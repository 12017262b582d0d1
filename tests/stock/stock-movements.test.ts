/**
 * The day's incoming and outgoing movements (the /incoming and /outgoing
 * screens): only that day and direction, with product, inventory and a link
 * to the document, under the ledger's own permission and inventory scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, type Headers } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;
const ALL = { view: true, edit: true, print: true, email: true, export: true };

describe.each(testDialects())('incoming and outgoing movements on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let mine: number;
  let theirs: number;
  let product: number;
  let clerk: Headers;
  let noLedger: Headers;
  let received: Row;
  let delivered: Row;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    // these tests deliver without a sales order too (do_create_type defaults to create_with_so)
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    mine = await c.inventory(company);
    theirs = await c.inventory(company);
    product = await c.product();
    received = await c.posted('goods_receipt', { inventory_id: mine, doc_date: '2026-11-20' }, [{ product_id: product, qty: 10, price: 5 }]);
    await c.posted('goods_receipt', { inventory_id: theirs, doc_date: '2026-11-20' }, [{ product_id: product, qty: 20, price: 5 }]);
    await c.posted('goods_receipt', { inventory_id: mine, doc_date: '2026-11-21' }, [{ product_id: product, qty: 3, price: 5 }]);
    delivered = await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: mine, doc_date: '2026-11-20' }, [{ product_id: product, qty: 4 }]);
    const detail = Object.fromEntries(['stock_movement', 'product', 'inventory'].map((k) => [k, ALL]));
    clerk = (await c.staff('mv', detail, { inventory: [mine] })).headers;
    noLedger = (await c.staff('nl', { product: ALL }, {})).headers;
  });
  afterAll(async () => t?.close());

  const movements = (q: string, as: Headers = c.admin) => c.call('GET', `/api/stock/movements?${q}`, as);

  it('lists one day\'s movements in one direction with product, inventory and document link', async () => {
    const ins = (await c.ok(movements('direction=in&date=2026-11-20'))) as unknown as Row[];
    expect(ins.map((m) => [m.inventory_id, m.qty])).toEqual([[mine, 10], [theirs, 20]]);
    expect(ins[0]).toMatchObject({ direction: 'in', ref_doc: received.doc_no, doc_entity: 'goods_receipt', doc_id: received.id, doc_path: `/goods_receipt/${received.id}` });
    expect(ins[0]).toMatchObject({ product_id: product, 'inventory_id.name': expect.any(String), 'product_id.code': expect.any(String), 'product_id.name_th': expect.any(String) });
    const outs = (await c.ok(movements('direction=out&date=2026-11-20'))) as unknown as Row[];
    expect(outs.map((m) => [m.qty, m.doc_path])).toEqual([[4, `/delivery_order/${delivered.id}`]]);
    expect((await c.ok(movements('direction=in&date=2026-11-21'))) as unknown as Row[]).toHaveLength(1);
    expect((await c.ok(movements(`direction=in&date=2026-11-20&inventory_id=${theirs}`))) as unknown as Row[]).toHaveLength(1);
  });

  it('keeps to the caller\'s inventories and the ledger\'s permission; bad parameters are 400', async () => {
    const ins = (await c.ok(movements('direction=in&date=2026-11-20', clerk))) as unknown as Row[];
    expect(ins.map((m) => m.inventory_id)).toEqual([mine]);
    expectError(await movements('direction=in&date=2026-11-20', noLedger), 403, 'FORBIDDEN');
    // the menu offers the screens to whoever may read the ledger
    const paths = async (as: Headers) => ((await c.ok(c.call('GET', '/api/menu', as))) as unknown as Row[]).flatMap((g) => g.submenu.map((m: Row) => m.path));
    expect(await paths(clerk)).toEqual(expect.arrayContaining(['/incoming', '/outgoing']));
    expect(await paths(noLedger)).not.toContain('/incoming');
    expectError(await movements('direction=sideways&date=2026-11-20'), 400, 'INVALID_QUERY');
    expectError(await movements('direction=in&date=2026-13-45'), 400, 'INVALID_QUERY');
    expectError(await movements('direction=in&date=2026-11-20&x=1'), 400, 'INVALID_QUERY');
  });
});
