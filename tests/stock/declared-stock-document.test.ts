/**
 * A stock document is declared, not coded (issue 35 §1): a new document whose
 * schema files (tests/stock/declared-stock/: the document and its lines) carry
 * `document.stock` and `document.scan` posts to the ledger, keeps its
 * locations in their inventory, reverses on cancel and is scanned into, and
 * through `document.from[]` has its create-from screen (menu entry, open
 * sources, a draft made from a delivery), with no TypeScript added for it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';

type Row = Record<string, any>;
const DECLARED = join(import.meta.dirname, 'declared-stock');
const declared = readdirSync(DECLARED).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(DECLARED, f), 'utf8')) as Row);

describe.each(testDialects())('a stock document declared in a schema file on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let wh: number;
  let other: number;
  let folder: { dir: string; remove(): void };

  beforeAll(async () => {
    folder = tempSchemasDir(declared, true);
    t = await createTestApp(dialect, folder.dir);
    c = new StockClient(t);
    const company = await c.company();
    wh = await c.inventory(company);
    other = await c.inventory(company);
    await c.settings({ is_enable_scan_select_product: false, is_gr_display_only_receive_products_in_doc_and_scan: false });
  });
  afterAll(async () => { await t?.close(); folder?.remove(); });

  const movements = async (id: number): Promise<Row[]> => {
    const filter = encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'stock_return' }, doc_id: { _eq: id } }));
    return (await c.ok(c.call('GET', `/api/stock_movement?filter=${filter}&sort=id`, c.admin))) as unknown as Row[];
  };

  it('posts its lines into the ledger and the balance, and its cancel reverses them', async () => {
    const p = await c.product();
    const doc = await c.draft('stock_return', { inventory_id: wh }, [{ product_id: p, qty: 4, price: 12.5 }]);
    await c.ok(c.action('stock_return', doc.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(4);
    expect((await movements(doc.id)).map((m) => [m.direction, m.qty, m.unit_cost, m.inventory_id, m.product_id])).toEqual([['in', 4, 12.5, wh, p]]);
    await c.ok(c.action('stock_return', doc.id, 'cancel'));
    expect(await c.onHand(p, wh)).toBe(0);
    expect((await movements(doc.id)).map((m) => m.direction)).toEqual(['in', 'out']);
  });

  it('needs its inventory to post, and a location of that inventory', async () => {
    const p = await c.product();
    const none = await c.draft('stock_return', {}, [{ product_id: p, qty: 1 }]);
    const missing = await c.action('stock_return', none.id, 'approve');
    expectError(missing, 400, 'VALIDATION_FAILED');
    expect(missing.json().error.details.fields.map((f: Row) => f.field)).toEqual(['inventory_id']);
    const elsewhere = await c.make('product_location', { code: c.next('L'), name: 'elsewhere', inventory_id: other });
    const bad = await c.call('POST', '/api/stock_return', c.admin, { doc_date: '2026-11-20', inventory_id: wh, items: [{ product_id: p, qty: 1, product_location_id: elsewhere }] });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().error.details.fields[0].field).toBe('items.0.product_location_id');
  });

  it('is scanned into: its scan endpoints count lines, and refuses a product it lacks', async () => {
    const p = await c.product();
    const product = await c.ok(c.call('GET', `/api/product/${p}`, c.admin));
    const doc = await c.draft('stock_return', { inventory_id: wh }, [{ product_id: p, qty: 2 }]);
    expect(await c.ok(c.call('POST', `/api/stock_return/${doc.id}/scan`, c.admin, { code: product.code }))).toMatchObject({ result: 'counted', product_id: p, qty: 1, scanned_qty: 1, wanted: 2 });
    const stranger = await c.ok(c.call('GET', `/api/product/${await c.product()}`, c.admin));
    const refused = await c.call('POST', `/api/stock_return/${doc.id}/scan`, c.admin, { code: stranger.code });
    expectError(refused, 409, 'SCAN_REFUSED');
    expect(refused.json().error.params.reason).toBe('not_in_document');
    const view = await c.ok(c.call('GET', `/api/stock_return/${doc.id}/scan`, c.admin));
    expect(view.lines).toEqual([expect.objectContaining({ product_id: p, wanted: 2, scanned: 1, state: 'partial' })]);
    // a document without document.scan has no scan endpoint
    expect((await c.call('POST', `/api/internal_product_transfer/1/scan`, c.admin, { code: product.code })).statusCode).toBe(404);
  });

  it('has its create-from screen: a menu entry, the open deliveries, a draft made from one and the source\'s action', async () => {
    const p = await c.product();
    const customer = await c.customer();
    await c.posted('stock_return', { inventory_id: wh }, [{ product_id: p, qty: 5 }]);
    await c.settings({ do_create_type: 'create_without_so' });
    const delivery = await c.posted('delivery_order', { inventory_id: wh, customer_id: customer }, [{ product_id: p, qty: 3 }]);
    // the menu has the screen, at /{target}/{source}, with the label the schema gives
    const menu = (await c.call('GET', '/api/menu', { ...c.admin, 'accept-language': 'th' })).json().data as { key: string; submenu: { path: string; label: { th: string } }[] }[];
    const stockGroup = menu.find((g) => g.key === 'purchasing_stock')!;
    expect(stockGroup.submenu.find((s) => s.path === '/stock_return/delivery_order')?.label.th).toBe('รับคืนจากใบส่งสินค้า');
    // the schema the web app reads names the screen and the source's button
    const meta = await c.ok(c.call('GET', '/api/meta/entities/stock_return', c.admin)) as unknown as Row;
    expect(meta.entity.document.from[0]).toMatchObject({ source: 'delivery_order', action: { th: 'รับคืนสินค้า' }, menu: true });
    // the open deliveries to choose from, and a draft made from one, carrying its lines
    const open = await c.call('GET', `/api/stock_return/from/delivery_order?ids=${delivery.id}`, c.admin);
    expect(open.statusCode, open.body).toBe(200);
    const made = await c.ok(c.call('POST', '/api/stock_return/from/delivery_order', c.admin, { ids: [delivery.id] }), 201);
    expect(made).toMatchObject({ customer_id: customer, status: 'draft' });
    expect(made.items).toEqual([expect.objectContaining({ product_id: p, qty: 3, source_line_id: delivery.items[0].id })]);
    // approved (with its inventory), it posts the returned goods back in
    await c.ok(c.call('PATCH', `/api/stock_return/${made.id}`, c.admin, { inventory_id: wh }));
    await c.ok(c.action('stock_return', made.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(5);
  });
});

