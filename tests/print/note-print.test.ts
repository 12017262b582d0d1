/**
 * A printed credit or debit note states what s. 86/10 of the Revenue Code asks (issue 47 §1): the tax
 * invoice it corrects (number and date), the original value, the correct value, the difference, the
 * VAT on the difference and the reason. Read back from the PDF with pdftotext, both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B]+/g, '');
/** The text of a PDF answer through poppler's pdftotext -layout. */
function pdfText(res: { rawPayload: Buffer }): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-note-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    execFileSync('pdftotext', ['-layout', join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    return readFileSync(join(dir, 'doc.txt'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const money = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe.each(testDialects())('credit and debit note prints on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let invoice: Row, credit: Row, debit: Row;

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const company = await c.company();
    const customer = await c.customer();
    const product = await c.product();
    const ti = await ok(c.call('POST', '/api/tax_invoice', c.admin, {
      doc_date: '2026-11-03', your_company_id: company, customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: product, description: 'ฟิล์มยืด 50 ซม.', qty: 10, unit: 'ม้วน', price: 1000 }, { product_id: product, qty: 4, unit: 'ม้วน', price: 250 }],
    }), 201);
    invoice = await act('tax_invoice', ti.id, 'issue');
    const reason = (await ok(c.call('POST', '/api/return_reason', c.admin, { code: 'DMG', name_th: 'สินค้าชำรุดจากการขนส่ง', return_side: 'sales' }), 201)).id;
    const cn = await ok(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [ti.id], values: { return_reason_id: reason }, lines: [{ source_line_id: invoice.items[0].id, amount: 1070 }] }), 201);
    credit = await act('credit_note', cn.id, 'issue');
    const dn = await ok(c.call('POST', '/api/debit_note/from/tax_invoice', c.admin, { ids: [ti.id], values: { return_reason_id: reason }, lines: [{ source_line_id: invoice.items[1].id, qty: 4, price: 25 }] }), 201);
    debit = await act('debit_note', dn.id, 'issue');
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([['credit_note', () => credit, -1], ['debit_note', () => debit, 1]] as const)('%s names its invoice, the three values, the VAT on the difference and the reason', async (entity, note, sign) => {
    const res = await c.call('GET', `/api/${entity}/${note().id}/pdf`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    if (process.env.KEEP_PDF) writeFileSync(`${process.env.KEEP_PDF}/${entity}-${dialect}.pdf`, res.rawPayload);
    const text = squeeze(pdfText(res));
    const original = Number(invoice.amount_before_vat);
    const difference = Number(note().amount_before_vat);
    expect(text).toContain(squeeze(`อ้างอิงใบกำกับภาษีเดิม เลขที่ ${invoice.doc_no} ลงวันที่ 3 พฤศจิกายน 2569`));
    expect(text).toContain(squeeze('สินค้าชำรุดจากการขนส่ง'));
    expect(text).toContain(squeeze(`มูลค่าสินค้า/บริการตามใบกำกับภาษีเดิม ${money(original)}`));
    expect(text).toContain(squeeze(`มูลค่าที่ถูกต้อง ${money(original + sign * difference)}`));
    expect(text).toContain(squeeze(`ผลต่าง ${money(difference)}`));
    expect(text).toContain(squeeze(`ภาษีมูลค่าเพิ่มของผลต่าง ${money(Number(note().vat_amount))}`));
    // the line's เอกสารอ้างอิง column names the invoice too (credit note lines made from it)
    if (entity === 'credit_note') expect(pdfText(res).split('\n').some((l) => l.includes(invoice.doc_no) && l.includes('ฟิล์มยืด'))).toBe(true);
    const en = squeeze(pdfText(await c.call('GET', `/api/${entity}/${note().id}/pdf?lang=en`, c.admin)));
    expect(en).toContain(squeeze(`Value on the original tax invoice ${money(original)}`));
    expect(en).toContain(squeeze('the Thai original prevails'));
  });
});
