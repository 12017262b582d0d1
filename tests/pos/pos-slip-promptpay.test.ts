/**
 * Issue 47 §2 on the POS slip: a PromptPay QR asks only for what is still to pay, to the issuing company's id.
 * - A sale stored at the register is paid in full (a PromptPay or transfer payment was seen arriving before it was
 *   stored), so GET /api/pos_order/{id}/slip prints no QR, whatever paid it.
 * - Were something still to pay (the slip's arithmetic, slipPromptPay), the QR is of that remainder only, to the
 *   seller's `promptpay_id` with the bill number as reference; a refunded sale or a seller without an id: none.
 * - A PromptPay method holds no id of its own: the money is the selling company's (the demo's method held one
 *   company's id, so the other company's terminal sent its money there).
 * The QR is decoded from the rendered slip (pdftoppm + jsqr) and parsed back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import jsQRModule from 'jsqr';
import { parse } from 'promptparse';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';
import { slipDocument, slipPromptPay } from '../../server/pos/sale-slip.ts';
import { pdfMake } from '../../server/print/pdf-fonts.ts';

type Row = Record<string, any>;
// jsqr is CommonJS with an ES default export: the function is .default under Node's interop, the module itself under Vite's
const jsQR = ((m: unknown) => (m as { default?: unknown }).default ?? m)(jsQRModule) as unknown as typeof jsQRModule.default;

/** The QR found on the slip (one page), rendered at 200 dpi, and the slip's text. */
function readSlip(pdf: Buffer): { qr: string | null; text: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bo-slip-'));
  try {
    writeFileSync(join(dir, 'slip.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', '200', '-png', '-f', '1', '-l', '1', '-singlefile', join(dir, 'slip.pdf'), join(dir, 'page')]);
    const png = PNG.sync.read(readFileSync(join(dir, 'page.png')));
    const qr = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data ?? null;
    const text = execFileSync('pdftotext', [join(dir, 'slip.pdf'), '-'], { encoding: 'utf8' }).replace(/\s+/g, '');
    return { qr, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the slip\'s PromptPay QR: only what is still to pay, to the seller', () => {
  const seller = { name_th: 'บริษัท ทดสอบ จำกัด', tax_id: '0105558034121', promptpay_id: '0105558034121' };
  const order = (over: Row = {}): Row => ({ doc_no: 'POS1-R2611-00001', doc_date: '2026-11-29', status: 'paid', total_amount: 91, change_amount: 0, subtotal: 91, amount_before_vat: 85.05, vat_amount: 5.95, items: [], payments: [], ...over });

  it('asks for the remainder: 91.00 with 50.00 kept in cash is a QR of 41.00 to the seller\'s id, the bill number as reference', async () => {
    const qr = await slipPromptPay(order({ payments: [{ payment_type: 'cash', amount: 60 }], change_amount: 10 }), seller);
    expect(qr?.satang).toBe(4100);
    const p = parse(qr!.payload, true, true)!;
    expect(p.validate('63')).toBe(true);
    expect(p.getTagValue('29', '02')).toBe('0105558034121');
    expect(p.getTagValue('54')).toBe('41.00');
    expect(p.getTagValue('62', '01')).toBe('POS1-R2611-00001');
    // printed: the QR on the slip decodes to the same payload, with its amount under it
    const pdf = await pdfMake().createPdf(slipDocument(order({ payments: [{ payment_type: 'cash', amount: 60 }], change_amount: 10 }), seller, undefined, new Map(), new Map(), qr) as never).getBuffer();
    const read = readSlip(Buffer.from(pdf));
    expect(read.qr).toBe(qr!.payload);
    expect(read.text).toContain('สแกนจ่ายด้วยพร้อมเพย์');
    expect(read.text).toContain('ยอดชำระ41.00บาท');
  });

  it('has no QR for a sale paid in full (by PromptPay, transfer or cash), a refunded sale, or a seller without an id', async () => {
    expect(await slipPromptPay(order({ payments: [{ payment_type: 'qr', amount: 91 }] }), seller)).toBeNull();
    expect(await slipPromptPay(order({ payments: [{ payment_type: 'cash', amount: 20 }, { payment_type: 'transfer', amount: 71 }] }), seller)).toBeNull();
    expect(await slipPromptPay(order({ payments: [{ payment_type: 'cash', amount: 100 }], change_amount: 9 }), seller)).toBeNull();
    expect(await slipPromptPay(order({ status: 'refunded' }), seller)).toBeNull();
    expect(await slipPromptPay(order(), { ...seller, promptpay_id: null })).toBeNull();
    expect(await slipPromptPay(order(), seller)).not.toBeNull();
  });
});

describe.each(testDialects())('PromptPay on the POS slip on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
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
    return readSlip(res.rawPayload);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    const taxId = (await c.call('GET', `/api/your_company/${company}`, c.admin)).json().data.tax_id;
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { promptpay_id: taxId })).statusCode).toBe(200);
    const inv = await c.inventory(company);
    const channel = await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos', your_company_id: company });
    const pos = await c.make('pos', { code: 'POS1', name: 'เครื่อง 1', your_company_id: company, inventory_id: inv, sales_channel_id: channel });
    cash = await c.make('payment_method', { code: 'CASH', name_th: 'เงินสด', payment_type: 'cash' });
    transfer = await c.make('payment_method', { code: 'TR', name_th: 'โอน', payment_type: 'transfer', bank_account_no: '123-4-56789-0' });
    // a PromptPay method needs no id of its own: the QR pays the selling company
    qrPay = await c.make('payment_method', { code: 'PP', name_th: 'พร้อมเพย์ QR', payment_type: 'qr' });
    film = await c.product({ price: 45.5 });
    await c.receive(inv, [{ product_id: film, qty: 50, price: 30 }]);
    await c.settings({ tax_invoice: 'abbreviated' });
    shift = (await c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 1000 })).json().data.id;
  });
  afterAll(async () => t?.close());

  it('prints no QR on the slip of a sale paid by PromptPay, by transfer beside cash, or in cash: nothing is still to pay', async () => {
    for (const payments of [[{ payment_method_id: qrPay, amount: 91 }], [{ payment_method_id: cash, amount: 20 }, { payment_method_id: transfer, amount: 71 }], [{ payment_method_id: cash, amount: 100 }]]) {
      const sale = await sell(payments, 2);
      const printed = await slip(sale.id);
      expect(printed.qr, JSON.stringify(payments)).toBeNull();
      expect(printed.text).not.toContain('สแกนจ่ายด้วยพร้อมเพย์');
      expect(printed.text).toContain(sale.doc_no);
    }
  });

  it('a payment method holds no PromptPay id of its own', async () => {
    expectError(await c.call('POST', '/api/payment_method', c.admin, { code: 'PP2', name_th: 'พร้อมเพย์ 2', payment_type: 'qr', promptpay_id: '0812345678' }), 400, 'UNKNOWN_FIELD');
  });
});
