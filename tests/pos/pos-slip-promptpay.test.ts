/**
 * Issue 33 §0: the POS slip carries the PromptPay QR of the amount due. On GET /api/pos_order/{id}/slip, when
 * the seller has a PromptPay id, the QR is of what the sale's PromptPay/transfer payments take (the customer
 * scans it to pay), with the bill number as reference; a sale settled at the counter (cash) has none, nor does a
 * seller without a PromptPay id. The QR is decoded from the rendered slip (pdftoppm + jsqr) and parsed back.
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
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;
// jsqr is CommonJS with an ES default export: the function is .default under Node's interop, the module itself under Vite's
const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as unknown as typeof jsQRModule.default;

/** The QR found on the slip (one page), rendered at 200 dpi, and the slip's text. */
function readSlip(res: LightMyRequestResponse): { qr: string | null; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bo-slip-'));
  try {
    writeFileSync(join(dir, 'slip.pdf'), res.rawPayload);
    execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', join(dir, 'slip.pdf'), join(dir, 'page')]);
    const png = PNG.sync.read(readFileSync(join(dir, 'page.png')));
    const qr = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
    const text = execFileSync('pdftotext', [join(dir, 'slip.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    return { qr, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('PromptPay QR on the POS slip on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number, taxId: string;
  let shift: number, cash: number, transfer: number, qrPay: number, film: number;
  let keyNo = 0;
  const sell = async (payments: Row[], qty = 1): Promise<Row> => {
    const res = await c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: film, qty }], payments }, { headers: { ...c.admin, 'idempotency-key': `slip-qr-${dialect}-${++keyNo}-abcdef` } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const slip = async (id: number) => {
    const res = await c.call('GET', `/api/pos_order/${id}/slip`, c.admin);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return readSlip(res);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    taxId = (await c.call('GET', `/api/your_company/${company}`, c.admin)).json().data.tax_id;
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: taxId })).statusCode).toBe(200);
    const inv = await c.inventory(company);
    const channel = await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos', your_company_id: company });
    const pos = await c.make('pos', { code: 'POS1', name: 'เครื่อง 1', your_company_id: company, inventory_id: inv, sales_channel_id: channel });
    cash = await c.make('payment_method', { code: 'CASH', name_th: 'เงินสด', payment_type: 'cash' });
    transfer = await c.make('payment_method', { code: 'TR', name_th: 'โอน', payment_type: 'transfer', bank_account_no: '123-4-56789-0' });
    // a PromptPay QR method names the account it takes payments into: its QR pays there
    qrPay = await c.make('payment_method', { code: 'PP', name_th: 'พร้อมเพย์ QR', payment_type: 'qr', promptpay_id: '0812345678' });
    film = await c.product({ price: 45.5 });
    await c.receive(inv, [{ product_id: film, qty: 50, price: 30 }]);
    await c.settings({ tax_invoice: 'abbreviated' });
    shift = (await c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 1000 })).json().data.id;
  });
  afterAll(async () => t?.close());

  it('a sale paid by PromptPay QR prints the QR of that amount, the method\'s PromptPay id and the bill number', async () => {
    const sale = await sell([{ payment_method_id: qrPay, amount: 91 }], 2);
    const { qr, text } = await slip(sale.id);
    expect(qr).not.toBeNull();
    const p = parse(qr!, true, true)!;
    expect(p.validate('63')).toBe(true);
    expect(p.getTagValue('29', '01')).toBe('0066812345678');
    expect(p.getTagValue('54')).toBe('91.00');
    expect(p.getTagValue('62', '01')).toBe(sale.doc_no);
    expect(text).toContain('สแกนจ่ายด้วยพร้อมเพย์');
  });

  it('with cash besides, the QR is of the transfer part only, to the seller\'s id; a cash sale has no QR', async () => {
    const mixed = await sell([{ payment_method_id: cash, amount: 20 }, { payment_method_id: transfer, amount: 25.5 }]);
    const p = parse((await slip(mixed.id)).qr!, true)!;
    expect(p.getTagValue('54')).toBe('25.50');
    expect(p.getTagValue('29', '02')).toBe(taxId);
    const paidCash = await sell([{ payment_method_id: cash, amount: 50 }]);
    const plain = await slip(paidCash.id);
    expect(plain.qr).toBeNull();
    expect(plain.text).not.toContain('สแกนจ่ายด้วยพร้อมเพย์');
  });

  it('no QR for a transfer when the seller has no PromptPay id', async () => {
    const sale = await sell([{ payment_method_id: transfer, amount: 45.5 }]);
    expect((await slip(sale.id)).qr).not.toBeNull();
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: null })).statusCode).toBe(200);
    try {
      expect((await slip(sale.id)).qr).toBeNull();
    } finally {
      await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: taxId });
    }
  });
});
