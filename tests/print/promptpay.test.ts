/**
 * PromptPay QR with the amount still due (issue 34 §2, §5): GET
 * /api/{document}/{id}/promptpay answers the EMVCo payload (parsed back with
 * promptparse: id, amount, reference, CRC), follows receipts taken from the
 * bill, answers 409 when nothing is due and 404 (Thai) without a PromptPay id;
 * it is read like the document (a portal customer: own bills only). The QR on
 * the billing note's and the tax invoice's PDF is decoded from the rendered page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import jsQRModule from 'jsqr';
import { parse } from 'promptparse';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, thaiTaxId } from '../support/security-fixtures.ts';

type Row = Record<string, any>;
// jsqr is CommonJS with an ES default export: the function is .default under Node's interop, the module itself under Vite's
const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as unknown as typeof jsQRModule.default;

/** The QR codes found on page 1 of the PDF, rendered at 150 dpi. */
function qrOnFirstPage(res: LightMyRequestResponse): string | null {
  const dir = mkdtempSync(join(tmpdir(), 'bo-qr-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    execFileSync('pdftoppm', ['-r', '150', '-png', '-f', '1', '-l', '1', '-singlefile', join(dir, 'doc.pdf'), join(dir, 'page')]);
    const png = PNG.sync.read(readFileSync(join(dir, 'page.png')));
    return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('PromptPay QR on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number, customer: number, product: number;
  let companyTaxId: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    companyTaxId = (await c.call('GET', `/api/your_company/${company}`, c.admin)).json().data.tax_id;
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  /** An issued bill of 10,000 + 7 % VAT, made from an approved order. */
  const bill = async (): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 10000 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201);
    return act('billing_note', bn.id, 'issue');
  };

  it('answers 404 with a Thai message while the company has no PromptPay id, and refuses an id that is neither a tax id nor a mobile', async () => {
    const bn = await bill();
    const res = await c.call('GET', `/api/billing_note/${bn.id}/promptpay`, { ...c.admin, 'accept-language': 'th' });
    expectError(res, 404, 'NOT_FOUND');
    expect(res.json().error.message).toMatch(/พร้อมเพย์/);
    expectError(await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: '12345' }), 400, 'VALIDATION_FAILED');
    // 13 digits with a wrong check digit: the pattern lets it through, the check does not
    const wrong = companyTaxId.slice(0, 12) + String((Number(companyTaxId[12]) + 1) % 10);
    const refused = await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: wrong });
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(refused.json().error.details.fields.map((f: Row) => f.field)).toEqual(['promptpay_id']);
    expect((await c.call('GET', `/api/your_company/${company}`, c.admin)).json().data.promptpay_id ?? null).toBeNull();
    // the QR is not on the print either
    expect(qrOnFirstPage(await c.call('GET', `/api/billing_note/${bn.id}/pdf`, c.admin))).toBeNull();
  });

  it('gives the payload of the amount still due, with the tax id, the bill number and a CRC that checks', async () => {
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: companyTaxId })).statusCode).toBe(200);
    const bn = await bill();
    const data = await ok(c.call('GET', `/api/billing_note/${bn.id}/promptpay`, c.admin));
    expect(data).toMatchObject({ amount: 10700, id_type: 'tax_id' });
    const qr = parse(data.payload, true, true)!;
    expect(qr.validate('63')).toBe(true);
    expect(qr.getTagValue('29', '02')).toBe(companyTaxId);
    expect(qr.getTagValue('54')).toBe('10700.00');
    expect(qr.getTagValue('62', '01')).toBe(bn.bill_no);

    // a posted receipt of 4,000.50 leaves 6,699.50; the rest settles the bill and nothing is due
    const part = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], lines: [{ source_line_id: bn.items[0].id, amount: 4000.5 }] }), 201);
    await act('receipt', part.id, 'post');
    const after = await ok(c.call('GET', `/api/billing_note/${bn.id}/promptpay`, c.admin));
    expect(after.amount).toBe(6699.5);
    expect(parse(after.payload, true)!.getTagValue('54')).toBe('6699.50');
    const rest = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id] }), 201);
    await act('receipt', rest.id, 'post');
    expectError(await c.call('GET', `/api/billing_note/${bn.id}/promptpay`, c.admin), 409, 'CONFLICT');
  });

  it('asks only for what the sale still owes: a draft and an invoice whose order was paid straight have no QR (409)', async () => {
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: companyTaxId })).statusCode).toBe(200);
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 1000 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const ti = await ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 201);
    // a draft asks for nothing yet
    expectError(await c.call('GET', `/api/tax_invoice/${ti.id}/promptpay`, c.admin), 409, 'CONFLICT');
    await act('tax_invoice', ti.id, 'issue');
    expect((await ok(c.call('GET', `/api/tax_invoice/${ti.id}/promptpay`, c.admin))).amount).toBe(1070);
    // the order is paid by a receipt made straight from it: the invoice of that order has nothing left to ask
    const rc = await ok(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id] }), 201);
    await act('receipt', rc.id, 'post');
    const res = await c.call('GET', `/api/tax_invoice/${ti.id}/promptpay`, { ...c.admin, 'accept-language': 'th' });
    expectError(res, 409, 'CONFLICT');
    expect(res.json().error.message).toMatch(/พร้อมเพย์/);
    expect(qrOnFirstPage(await c.call('GET', `/api/tax_invoice/${ti.id}/pdf`, c.admin))).toBeNull();
  });

  it('is read like the bill: a portal customer gets their own bill\'s QR, another customer\'s bill is 404', async () => {
    const bn = await bill();
    const mine = await c.customerUser(customer);
    expect((await ok(c.call('GET', `/api/billing_note/${bn.id}/promptpay`, mine.headers))).amount).toBe(10700);
    const other = await c.customerUser(await c.customer());
    expectError(await c.call('GET', `/api/billing_note/${bn.id}/promptpay`, other.headers), 404, 'NOT_FOUND');
    const blind = await c.staff('no_view', { customer: { view: true } });
    expectError(await c.call('GET', `/api/billing_note/${bn.id}/promptpay`, blind.headers), 403, 'FORBIDDEN');
  });

  it('prints the QR on the billing note and the tax invoice; decoded from the page it is the payload of the amount due', async () => {
    const bn = await bill();
    const fromPdf = qrOnFirstPage(await c.call('GET', `/api/billing_note/${bn.id}/pdf`, c.admin));
    expect(fromPdf).toBe((await ok(c.call('GET', `/api/billing_note/${bn.id}/promptpay`, c.admin))).payload);

    const mobile = await c.company();
    expect((await c.call('PATCH', `/api/your_company/${mobile}`, c.admin, { promptpay_id: '0812345678' })).statusCode).toBe(200);
    const draft = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-20', your_company_id: mobile, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 2, price: 500 }] }), 201);
    // a draft prints no QR: it asks for nothing until it is issued
    expect(qrOnFirstPage(await c.call('GET', `/api/tax_invoice/${draft.id}/pdf`, c.admin))).toBeNull();
    const iv = await act('tax_invoice', draft.id, 'issue');
    const decoded = qrOnFirstPage(await c.call('GET', `/api/tax_invoice/${iv.id}/pdf`, c.admin));
    expect(decoded).not.toBeNull();
    const qr = parse(decoded!, true, true)!;
    expect(qr.validate('63')).toBe(true);
    expect(qr.getTagValue('29', '01')).toBe('0066812345678');
    expect(Number(qr.getTagValue('54'))).toBe(iv.net_amount ?? iv.total_amount);
    // three PDFs rendered and decoded: more than the default 30 s on a loaded machine
  }, 120_000);

  it('is in the OpenAPI document for billing notes and tax invoices only', async () => {
    const spec = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(Object.keys(spec.paths['/api/billing_note/{id}/promptpay'] ?? {})).toEqual(['get']);
    expect(spec.paths['/api/receipt/{id}/promptpay']).toBeUndefined();
    void thaiTaxId;
  });
});
