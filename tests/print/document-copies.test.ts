/**
 * Documents ready to hand out (issue 34 §1, §5): ?copies=original,copy prints
 * each copy in order in one PDF, marked ต้นฉบับ / สำเนา; the signature blocks
 * the schema's print key lists; the company logo; a receipt that is also a
 * tax invoice (site setting tax_invoice) titled ใบเสร็จรับเงิน/ใบกำกับภาษี.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { multipart } from '../support/multipart.ts';
import { setSiteSettings } from '../support/site-settings.ts';

/** Compared without spaces and without Thai marks: pdftotext gives a shifted mark out of order ("ผูวาง้บิล"). */
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]+/g, '');

/** Runs a poppler tool on the PDF answer and gives its output. */
function poppler(res: LightMyRequestResponse, tool: string, args: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-copies-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    return execFileSync(tool, [...args, join(dir, 'doc.pdf'), ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
/** The PDF's text (pdftotext, NFKC: SARA AM is printed as NIKHAHIT + SARA AA, see thai-text.ts). */
const pdfText = (res: LightMyRequestResponse, layout = true) => poppler(res, 'pdftotext', layout ? ['-layout'] : []).normalize('NFKC');
const pages = (res: LightMyRequestResponse) => Number(/^Pages:\s*(\d+)/m.exec(poppler(res, 'pdfinfo'))?.[1]);

function redSquare(): Buffer {
  const png = new PNG({ width: 40, height: 20 });
  for (let i = 0; i < png.data.length; i += 4) png.data.set([200, 30, 30, 255], i);
  return PNG.sync.write(png);
}

describe.each(testDialects())('copies, signatures, logo and titles on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number, customer: number, noteId: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    noteId = await c.billingNote(customer, company);
  });
  afterAll(async () => t?.close());

  const receipt = (vat_type: string) => c.make('receipt', {
    doc_date: '2026-11-20', your_company_id: company, customer_id: customer, payment_method: 'cash', vat_type,
    items: [{ description: 'รับชำระค่าสินค้า', amount: 1070 }],
  });

  it('prints the copies asked for, in order, each on its own pages and marked ต้นฉบับ or สำเนา', async () => {
    const one = await c.call('GET', `/api/billing_note/${noteId}/pdf`, c.admin);
    const two = await c.call('GET', `/api/billing_note/${noteId}/pdf?copies=original,copy`, c.admin);
    expect(two.statusCode, two.body.slice(0, 300)).toBe(200);
    expect(pages(two)).toBe(2 * pages(one));
    const text = squeeze(pdfText(two, false));
    const original = text.indexOf(squeeze('ต้นฉบับ / Original'));
    const copy = text.indexOf(squeeze('สำเนา / Copy'));
    expect(original).toBeGreaterThanOrEqual(0);
    expect(copy).toBeGreaterThan(original);
    // the copy's page carries the whole document again
    const billNo = (await c.call('GET', `/api/billing_note/${noteId}`, c.admin)).json().data.bill_no as string;
    expect(text.indexOf(billNo, copy)).toBeGreaterThan(copy);
    const copyFirst = squeeze(pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf?copies=copy,original`, c.admin), false));
    expect(copyFirst.indexOf(squeeze('สำเนา / Copy'))).toBeLessThan(copyFirst.indexOf(squeeze('ต้นฉบับ / Original')));
  });

  it('marks every page of each copy, and counts "หน้า x/y" within the copy', async () => {
    // 60 lines: each copy runs over more than one page
    const items = Array.from({ length: 60 }, (_, i) => ({ description: `ค่าสินค้างวดที่ ${i + 1}`, amount: 100 }));
    const long = await c.make('billing_note', c.billingNoteBody(customer, company, { total_amount: 6000, items }));
    const one = await c.call('GET', `/api/billing_note/${long}/pdf?copies=original`, c.admin);
    const per = pages(one);
    expect(per).toBeGreaterThan(1);
    const res = await c.call('GET', `/api/billing_note/${long}/pdf?copies=original,copy`, c.admin);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(pages(res)).toBe(2 * per);
    for (let p = 1; p <= 2 * per; p++) {
      const page = squeeze(poppler(res, 'pdftotext', ['-f', String(p), '-l', String(p)]).normalize('NFKC'));
      const inCopy = p <= per ? p : p - per;
      const [mine, other] = p <= per ? ['ต้นฉบับ / Original', 'สำเนา / Copy'] : ['สำเนา / Copy', 'ต้นฉบับ / Original'];
      expect(page, `page ${p}`).toContain(squeeze(mine));
      expect(page, `page ${p}`).not.toContain(squeeze(other));
      expect(page, `page ${p}`).toContain(squeeze(`หน้า ${inCopy}/${per}`));
    }
  });

  it('refuses copies it does not know with 400', async () => {
    for (const q of ['copies=original,draft', 'copies=', 'copies=original,copy,copy,copy,copy']) {
      const res = await c.call('GET', `/api/billing_note/${noteId}/pdf?${q}`, c.admin);
      if (q === 'copies=') expect(res.statusCode).toBe(200);
      else expectError(res, 400, 'INVALID_QUERY');
    }
  });

  it('has the signature blocks its schema lists: billing note ผู้วางบิล / ผู้รับวางบิล, receipt ผู้รับเงิน / ผู้มีอำนาจลงนาม', async () => {
    const note = squeeze(pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf`, c.admin), false));
    expect(note).toContain(squeeze('ผู้วางบิล'));
    expect(note).toContain(squeeze('ผู้รับวางบิล'));
    const rc = squeeze(pdfText(await c.call('GET', `/api/receipt/${await receipt('none')}/pdf`, c.admin), false));
    expect(rc).toContain(squeeze('ผู้รับเงิน'));
    expect(rc).toContain(squeeze('ผู้มีอำนาจลงนาม'));
    const en = pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=en`, c.admin), false);
    expect(en).toContain('Bill received by');
  });

  it('titles a receipt with VAT ใบเสร็จรับเงิน/ใบกำกับภาษี (or its abbreviated form) as the site setting says', async () => {
    const withVat = await receipt('include');
    const noVat = await receipt('none');
    const title = async (id: number) => squeeze(pdfText(await c.call('GET', `/api/receipt/${id}/pdf`, c.admin), false));
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' });
    expect(await title(withVat)).toContain(squeeze('ใบเสร็จรับเงิน/ใบกำกับภาษี'));
    expect(await title(withVat)).not.toContain(squeeze('ใบกำกับภาษีอย่างย่อ'));
    expect(await title(noVat)).not.toContain(squeeze('ใบกำกับภาษี'));
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'abbreviated' });
    expect(await title(withVat)).toContain(squeeze('ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ'));
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' });
  });

  it('carries the company logo', async () => {
    const before = await c.call('GET', `/api/billing_note/${noteId}/pdf`, c.admin);
    expect(poppler(before, 'pdfimages', ['-list']).split('\n').filter((l) => /^\s*\d+\s+\d+\s+image/.test(l))).toHaveLength(0);
    const body = multipart('logo.png', redSquare());
    const up = await t.app.inject({ method: 'POST', url: '/api/file/upload/logo', headers: { ...c.admin, ...body.headers }, payload: body.payload });
    expect(up.statusCode, up.body).toBe(200);
    const fileId = up.json().data[0].id as string;
    expect((await c.call('PATCH', `/api/your_company/${company}`, c.admin, { logo: fileId })).statusCode).toBe(200);
    const after = await c.call('GET', `/api/billing_note/${noteId}/pdf`, c.admin);
    const images = poppler(after, 'pdfimages', ['-list']).split('\n').filter((l) => /^\s*\d+\s+\d+\s+image/.test(l));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatch(/\s40\s+20\s/);
  });

  it('prints a 50 ทวิ as copy 1 and copy 2, each with its printed purpose; ?copies=copy gives copy 2 alone', async () => {
    const supplier = await c.make('supplier', { code: 'S-WHT', supplier_type: 'juristic', name_th: 'บริษัท ขนส่งไทย จำกัด', tax_id: '0105547002151' });
    const wht = await c.make('withholding_tax', {
      doc_date: '2026-11-18', your_company_id: company, payee_type: 'supplier', supplier_id: supplier, income_type: '40_8', pnd_form: 'pnd53', wht_rate: '1', amount_paid: 25000, sequence_no: 3,
    });
    const both = await c.call('GET', `/api/withholding_tax/${wht}/pdf`, c.admin);
    expect(both.statusCode, both.body.slice(0, 300)).toBe(200);
    expect(pages(both)).toBe(2);
    const text = squeeze(pdfText(both, false));
    const one = text.indexOf(squeeze('ฉบับที่ 1 (สำหรับผู้ถูกหักภาษี ณ ที่จ่าย ใช้แนบพร้อมกับแบบแสดงรายการภาษี)'));
    const two = text.indexOf(squeeze('ฉบับที่ 2 (สำหรับผู้ถูกหักภาษี ณ ที่จ่าย เก็บไว้เป็นหลักฐาน)'));
    expect(one).toBeGreaterThanOrEqual(0);
    expect(two).toBeGreaterThan(one);
    expect(text).toContain(squeeze('สองร้อยห้าสิบบาทถ้วน'));
    expect(text).toContain('25,000.00');
    expect(text).toContain('250.00');
    const copy2 = await c.call('GET', `/api/withholding_tax/${wht}/pdf?copies=copy`, c.admin);
    expect(pages(copy2)).toBe(1);
    expect(squeeze(pdfText(copy2, false))).not.toContain(squeeze('ฉบับที่ 1'));
  });
});
