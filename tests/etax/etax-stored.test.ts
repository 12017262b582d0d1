/**
 * One e-Tax file per document (issue 47 §3), both dialects: two downloads of an issued document's etax.xml
 * and etax.pdf are byte for byte the same (made on the first request, then kept); CreationDateTime carries
 * the business time zone's offset; the PDF/A-3's XMP packet is well-formed UTF-8 XML naming the Thai
 * title; a cancelled document's cancellation note (T07) is kept the same way; the e-Tax PDF of a POS sale
 * shows the document its XML states (the abbreviated tax invoice and its number).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from 'xmlbuilder2';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';

type Row = Record<string, any>;

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'etax-kept-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftotext', ['-raw', join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    return readFileSync(join(dir, 'doc.txt'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The XMP packet of a PDF as its bytes say (pdf-lib writes it uncompressed), decoded as strict UTF-8. */
function xmpOf(pdf: Buffer): string {
  const start = pdf.indexOf('<?xpacket begin=');
  const end = pdf.indexOf('<?xpacket end="w"?>', start);
  expect(start).toBeGreaterThan(0);
  return new TextDecoder('utf-8', { fatal: true }).decode(pdf.subarray(start, end + '<?xpacket end="w"?>'.length));
}

describe.each(testDialects())('kept e-Tax files on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let invoice: Row;
  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const get = async (path: string) => {
    const res = await c.call('GET', path, c.admin);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return res.rawPayload;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const company = await c.company();
    const customer = await c.customer();
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, {
      doc_date: '2026-11-03', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: await c.product(), description: 'ฟิล์มยืด 50 ซม.', qty: 10, unit: 'ม้วน', price: 1000 }],
    }), 201);
    invoice = await ok(c.call('POST', `/api/tax_invoice/${ti.id}/actions/issue`, c.admin));
  });
  afterAll(async () => t?.close());

  it('serves the same XML and PDF on every request, with the business offset and a UTF-8 XMP naming the Thai title', async () => {
    const base = `/api/tax_invoice/${invoice.id}`;
    const xml1 = await get(`${base}/etax.xml`);
    const pdf1 = await get(`${base}/etax.pdf`);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await get(`${base}/etax.xml`)).equals(xml1)).toBe(true);
    expect((await get(`${base}/etax.pdf`)).equals(pdf1)).toBe(true);
    const created = xml1.toString('utf8').match(/<ram:CreationDateTime>([^<]+)<\/ram:CreationDateTime>/)?.[1];
    expect(created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+07:00$/);
    const xmp = xmpOf(pdf1);
    const parsed = create(xmp.replace(/^<\?xpacket[^>]*\?>/, '').replace(/<\?xpacket[^>]*\?>$/, '').trim()).end({ format: 'object' });
    expect(JSON.stringify(parsed)).toContain(`ใบกำกับภาษี ${invoice.doc_no}`);
    // another language is another file, kept the same way
    const en = await get(`${base}/etax.pdf?lang=en`);
    expect((await get(`${base}/etax.pdf?lang=en`)).equals(en)).toBe(true);
  });

  it('a cancelled invoice answers its cancellation note (T07), kept like the document', async () => {
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, {
      doc_date: '2026-11-04', your_company_id: invoice.your_company_id, customer_id: invoice.customer_id, items: [{ product_id: await c.product(), qty: 1, price: 100 }],
    }), 201);
    await ok(c.call('POST', `/api/tax_invoice/${ti.id}/actions/issue`, c.admin));
    const original = await get(`/api/tax_invoice/${ti.id}/etax.xml`);
    await ok(c.call('POST', `/api/tax_invoice/${ti.id}/actions/cancel`, c.admin));
    const note = await get(`/api/tax_invoice/${ti.id}/etax.xml?cancellation=1`);
    expect(note.toString('utf8')).toContain('<ram:TypeCode>T07</ram:TypeCode>');
    expect(note.equals(original)).toBe(false);
    expect((await get(`/api/tax_invoice/${ti.id}/etax.xml?cancellation=1`)).equals(note)).toBe(true);
    const pdf = await get(`/api/tax_invoice/${ti.id}/etax.pdf?cancellation=1`);
    expect((await get(`/api/tax_invoice/${ti.id}/etax.pdf?cancellation=1`)).equals(pdf)).toBe(true);
  });

  it('the POS sale\'s e-Tax PDF shows its abbreviated tax invoice under the XML\'s number', async () => {
    const shop = await posShop(c);
    await c.call('PATCH', `/api/your_company/${shop.company}`, c.admin, { address_line: '99/12 ถนนพระราม 4', province: 'กรุงเทพมหานคร', postal_code: '10500' });
    const film = await c.product({ price: 45.5 });
    await c.receive(shop.inv, [{ product_id: film, qty: 20, price: 30 }]);
    await c.settings({ tax_invoice: 'abbreviated' });
    const shift = (await c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 500 })).json().data.id;
    const res = await c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: film, qty: 2 }], payments: [{ payment_method_id: shop.cash, amount: 100 }] }, { headers: { ...c.admin, 'idempotency-key': `kept-${dialect}-sale-1` } });
    expect(res.statusCode, res.body).toBe(201);
    const sale = res.json().data;
    const xml = (await get(`/api/pos_order/${sale.id}/etax.xml`)).toString('utf8');
    expect(xml).toContain(`<ram:ID>${sale.tax_invoice_no}</ram:ID>`);
    const text = pdfText(await get(`/api/pos_order/${sale.id}/etax.pdf`));
    expect(text).toContain(sale.tax_invoice_no);
    expect(text).toContain('ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ');
    expect(text).not.toContain(sale.doc_no);
  });
});
