/**
 * Unique pack barcodes and scanning: codes drawn in the site's format, labels
 * as a real PDF, scans counted on goods receipt and delivery lines, over-scans
 * recorded (never silently accepted), packs received and delivered by posting,
 * and each scan setting changing what happens.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;
const SCAN_FLAGS = {
  do_create_type: 'create_without_so',
  is_enable_product_pack: true, barcode_unique_print_format: '{product_code}/{lot}/{seq:5}', is_enable_scan_with_note: false, is_enable_scan_select_product: false,
  is_gr_display_only_receive_products_in_doc_and_scan: false, is_do_display_only_send_products_in_doc_and_scan: false, scan_with_oldest_expire_product: false, is_auto_scan_gr: false,
};

describe.each(testDialects())('barcodes and scanning on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    // these tests deliver without a sales order too (do_create_type defaults to create_with_so)
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = await c.inventory(company);
  });
  beforeEach(async () => c.settings(SCAN_FLAGS));
  afterAll(async () => t?.close());

  const packs = async (product: number, count: number, extra: Row = {}): Promise<Row[]> =>
    c.ok(c.call('POST', '/api/barcodes/generate', c.admin, { product_id: product, pack_qty: 5, unit: 'ม้วน', count, ...extra }), 201) as unknown as Promise<Row[]>;
  const scan = (entity: string, id: number, code: string, note?: string) => c.call('POST', `/api/${entity}/${id}/scan`, c.admin, { code, ...(note ? { note } : {}) });
  const view = async (entity: string, id: number) => c.ok(c.call('GET', `/api/${entity}/${id}/scan`, c.admin));
  const receiptOf = async (product: number, qty: number) => {
    const po = await c.ok(c.call('POST', '/api/purchase_order', c.admin, { supplier_id: await c.supplier(), your_company_id: company, items: [{ product_id: product, qty, price: 10 }] }), 201);
    await c.ok(c.action('purchase_order', po.id, 'approve'));
    const gr = await c.ok(c.call('POST', '/api/goods_receipt/from/purchase_order', c.admin, { ids: [po.id] }), 201);
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { inventory_id: wh }));
    return gr;
  };

  it('draws unique codes in the site format; packs are refused while is_enable_product_pack is off', async () => {
    const p = await c.product();
    const product = await c.ok(c.call('GET', `/api/product/${p}`, c.admin));
    const rows = await packs(p, 3, { lot_no: 'A1' });
    for (const r of rows) expect(r.code).toMatch(new RegExp(`^${product.code}/A1/\\d{5}$`));
    expect(new Set(rows.map((r) => r.code)).size).toBe(3);
    expect(rows.every((r) => r.status === 'printed')).toBe(true);
    await c.settings({ barcode_unique_print_format: 'X{YYYY}' });
    const [other] = await packs(p, 1);
    expect(other!.code).toMatch(/^X\d{4}-\d{6}$/);
    await c.settings({ is_enable_product_pack: false });
    expectError(await c.call('POST', '/api/barcodes/generate', c.admin, { product_id: p, count: 1 }), 409, 'FEATURE_DISABLED');
  });

  it('prints labels as a PDF carrying each code, and counts the prints', async () => {
    const p = await c.product();
    const rows = await packs(p, 2, { lot_no: 'L9', expiry_date: '2027-01-31' });
    const res = await c.call('GET', `/api/barcodes/labels.pdf?ids=${rows.map((r) => r.id).join(',')}`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(res.rawPayload.includes(Buffer.from('/Subtype /Image'))).toBe(true);
    if (existsSync('/usr/bin/pdftotext')) {
      const file = join(mkdtempSync(join(tmpdir(), 'labels-')), 'l.pdf');
      writeFileSync(file, res.rawPayload);
      const text = execFileSync('/usr/bin/pdftotext', [file, '-']).toString();
      for (const r of rows) expect(text).toContain(r.code);
    }
    expect((await c.ok(c.call('GET', `/api/barcodes/${rows[0]!.id}`, c.admin))).print_count).toBe(1);
    expectError(await c.call('GET', '/api/barcodes/labels.pdf?ids=abc', c.admin), 400, 'INVALID_QUERY');
  });

  it('counts scans on the receipt line; a second scan of one pack and an unknown code are refused; beyond the line is recorded as an over-scan', async () => {
    const p = await c.product();
    const [a, b, extra] = await packs(p, 3);
    const gr = await receiptOf(p, 10);
    expect(await c.ok(scan('goods_receipt', gr.id, a!.code))).toMatchObject({ result: 'counted', product_id: p, qty: 5, scanned_qty: 5, wanted: 10, barcode_id: a!.id });
    const again = await scan('goods_receipt', gr.id, a!.code);
    expectError(again, 409, 'SCAN_REFUSED');
    expect(again.json().error.params.reason).toBe('already_used');
    const unknown = await scan('goods_receipt', gr.id, 'NO-SUCH-CODE');
    expectError(unknown, 409, 'SCAN_REFUSED');
    expect(unknown.json().error.params.reason).toBe('unknown_code');
    expect((await c.ok(scan('goods_receipt', gr.id, b!.code))).scanned_qty).toBe(10);
    const over = await scan('goods_receipt', gr.id, extra!.code);
    expectError(over, 409, 'SCAN_OVER');
    expect(over.json().error.details).toMatchObject({ product_id: p, wanted: 10, scanned: 10, asked: 5 });
    const recorded = (await c.ok(c.call('GET', `/api/barcodes_scan_over?filter=${encodeURIComponent(JSON.stringify({ doc_id: { _eq: gr.id }, doc_entity: { _eq: 'goods_receipt' } }))}`, c.admin))) as unknown as Row[];
    expect(recorded).toEqual([expect.objectContaining({ code: extra!.code, product_id: p, qty: 5, wanted: 10, scanned: 10 })]);
    const v = await view('goods_receipt', gr.id);
    expect(v.lines).toEqual([expect.objectContaining({ product_id: p, wanted: 10, scanned: 10, state: 'done' })]);
    expect(v.scans).toHaveLength(2);
    expect(v.over_scans).toHaveLength(1);
    // posting receives the scanned packs into the inventory; the over-scanned one stays unreceived
    await c.ok(c.action('goods_receipt', gr.id, 'approve'));
    expect(await c.onHand(p, wh)).toBe(10);
    const after = await Promise.all([a, b, extra].map((x) => c.ok(c.call('GET', `/api/barcodes/${x!.id}`, c.admin))));
    expect(after.map((x) => [x.status, x.inventory_id, x.goods_receipt_id])).toEqual([['received', wh, gr.id], ['received', wh, gr.id], ['printed', null, null]]);
    const posted = await scan('goods_receipt', gr.id, extra!.code);
    expect(posted.json().error.params.reason).toBe('not_draft');
    // a delivery takes received packs only, and marks them delivered
    const d = await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh }, [{ product_id: p, qty: 5 }]);
    expect((await scan('delivery_order', d.id, extra!.code)).json().error.params.reason).toBe('already_used');
    await c.ok(scan('delivery_order', d.id, a!.code));
    await c.ok(c.action('delivery_order', d.id, 'approve'));
    expect((await c.ok(c.call('GET', `/api/barcodes/${a!.id}`, c.admin))).status).toBe('delivered');
    await c.ok(c.action('delivery_order', d.id, 'cancel'));
    expect((await c.ok(c.call('GET', `/api/barcodes/${a!.id}`, c.admin))).status).toBe('received');
  });

  it('a product\'s own barcode counts one unit; is_enable_scan_select_product lets a scan add a product the document lacks', async () => {
    const p = await c.product({ barcode: `885${Date.now() % 1e9}` });
    const q = await c.product();
    const product = await c.ok(c.call('GET', `/api/product/${p}`, c.admin));
    const other = await c.ok(c.call('GET', `/api/product/${q}`, c.admin));
    const gr = await receiptOf(p, 2);
    expect(await c.ok(scan('goods_receipt', gr.id, product.barcode))).toMatchObject({ qty: 1, scanned_qty: 1 });
    const missing = await scan('goods_receipt', gr.id, other.code);
    expect(missing.json().error.params.reason).toBe('not_in_document');
    await c.settings({ is_enable_scan_select_product: true });
    expect(await c.ok(scan('goods_receipt', gr.id, other.code))).toMatchObject({ result: 'added', product_id: q, qty: 1, scanned_qty: 1, wanted: 1 });
    const doc = await c.ok(c.call('GET', `/api/goods_receipt/${gr.id}`, c.admin));
    expect(doc.items.map((l: Row) => [l.product_id, l.qty, l.scanned_qty])).toEqual([[p, 2, 1], [q, 1, 1]]);
    // with the display-only setting the screen keeps to the document's products: adding is refused again
    const third = await c.ok(c.call('GET', `/api/product/${await c.product()}`, c.admin));
    await c.settings({ is_gr_display_only_receive_products_in_doc_and_scan: true });
    const refused = await scan('goods_receipt', gr.id, third.code);
    expectError(refused, 409, 'SCAN_REFUSED');
    expect(refused.json().error.params.reason).toBe('not_in_document');
  });

  it('the display-only settings show only the lines scanned so far; notes are kept only with is_enable_scan_with_note', async () => {
    const p = await c.product();
    const q = await c.product();
    const pp = await c.ok(c.call('GET', `/api/product/${p}`, c.admin));
    const gr = await c.draft('goods_receipt', { inventory_id: wh }, [{ product_id: p, qty: 3 }, { product_id: q, qty: 3 }]);
    expect((await c.ok(scan('goods_receipt', gr.id, pp.code, 'กล่องบุบ'))).note).toBeNull();
    expect((await view('goods_receipt', gr.id)).lines.map((l: Row) => l.product_id)).toEqual([p, q]);
    await c.settings({ is_gr_display_only_receive_products_in_doc_and_scan: true, is_enable_scan_with_note: true });
    const v = await view('goods_receipt', gr.id);
    expect(v.lines.map((l: Row) => l.product_id)).toEqual([p]);
    expect(v.settings).toMatchObject({ display_only_scanned: true, scan_with_note: true });
    expect((await c.ok(scan('goods_receipt', gr.id, pp.code, 'กล่องบุบ'))).note).toBe('กล่องบุบ');
    // saving the draft's lines again keeps what was scanned on them
    const saved = await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { items: gr.items.map((l: Row) => ({ id: l.id, product_id: l.product_id, qty: l.qty })) }));
    expect(saved.items.map((l: Row) => l.scanned_qty)).toEqual([2, 0]);
    expect((await c.ok(c.call('GET', `/api/goods_receipt/${gr.id}`, c.admin))).items.map((l: Row) => l.scanned_qty)).toEqual([2, 0]);
    // the delivery order has its own display-only setting
    await c.receive(wh, [{ product_id: p, qty: 5 }, { product_id: q, qty: 5 }]);
    const d = await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh }, [{ product_id: p, qty: 1 }, { product_id: q, qty: 1 }]);
    expect((await view('delivery_order', d.id)).lines).toHaveLength(2);
    await c.settings({ is_do_display_only_send_products_in_doc_and_scan: true });
    expect((await view('delivery_order', d.id)).lines).toHaveLength(0);
    await c.ok(scan('delivery_order', d.id, pp.code));
    expect((await view('delivery_order', d.id)).lines.map((l: Row) => l.product_id)).toEqual([p]);
  });

  it('with scan_with_oldest_expire_product a pack is refused while an earlier-expiring lot is in stock', async () => {
    const p = await c.product();
    const [early] = await packs(p, 1, { lot_no: 'E', expiry_date: '2027-01-01' });
    const [late] = await packs(p, 1, { lot_no: 'F', expiry_date: '2027-06-01' });
    const gr = await c.draft('goods_receipt', { inventory_id: wh }, [{ product_id: p, qty: 5, lot_no: 'E', expiry_date: '2027-01-01' }, { product_id: p, qty: 5, lot_no: 'F', expiry_date: '2027-06-01' }]);
    await c.ok(scan('goods_receipt', gr.id, early!.code));
    await c.ok(scan('goods_receipt', gr.id, late!.code));
    await c.ok(c.action('goods_receipt', gr.id, 'approve'));
    const delivery = () => c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh }, [{ product_id: p, qty: 10 }]);
    // off: any lot may be scanned
    const d0 = await delivery();
    await c.ok(scan('delivery_order', d0.id, late!.code));
    await c.ok(c.call('DELETE', `/api/delivery_order/${d0.id}`, c.admin));
    await c.settings({ scan_with_oldest_expire_product: true });
    const d = await delivery();
    const res = await scan('delivery_order', d.id, late!.code);
    expectError(res, 409, 'SCAN_REFUSED');
    expect(res.json().error.params.reason).toBe('older_lot');
    expect(res.json().error.details).toMatchObject({ lot_no: 'E', expiry_date: '2027-01-01' });
    await c.ok(scan('delivery_order', d.id, early!.code));
    await c.ok(scan('delivery_order', d.id, late!.code));
  });

  it('is_auto_scan_gr counts a new receipt as scanned in full', async () => {
    const p = await c.product();
    const [pack] = await packs(p, 1);
    const off = await receiptOf(p, 5);
    expect(off.items[0].scanned_qty).toBe(0);
    await c.settings({ is_auto_scan_gr: true });
    const on = await receiptOf(p, 5);
    expect(on.items[0].scanned_qty).toBe(5);
    expect((await c.ok(c.call('GET', `/api/goods_receipt/${on.id}`, c.admin))).items[0].scanned_qty).toBe(5);
    expectError(await scan('goods_receipt', on.id, pack!.code), 409, 'SCAN_OVER');
    expect((await c.ok(scan('goods_receipt', off.id, pack!.code))).scanned_qty).toBe(5);
  });
});
