import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * The e-Tax buttons of a document form (issue 34 §4): a tax invoice offers the ETDA XML and the PDF/A-3
 * (print flag) and "e-mail as e-Tax" (email flag, the e-mail dialog in e-Tax mode, posting to …/etax-email);
 * a quotation, which the standard does not cover, shows none of them.
 */
describe('e-Tax buttons end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let token: string;
  const url = (p: string) => s.url(p);

  beforeAll(async () => {
    s = await browserSession({ context: { acceptDownloads: true } });
    ({ page, errors, api, token } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('downloads the XML and the PDF/A-3 of an issued tax invoice, and opens the e-Tax e-mail', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0].id as number;
    const made = await api('POST', '/api/tax_invoice', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), customer_id: await first('customer'),
      items: [{ product_id: await first('product'), qty: 2, price: 500 }],
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    const id = made.data.id as number;
    // the demo company carries its TISI 1099 codes; without them the form must say what ETDA's checks will refuse
    const company = (await api('GET', `/api/your_company/${made.data.your_company_id}`)).data;
    expect(company.sub_district_code).toMatch(/^\d{6}$/);
    expect((await api('PATCH', `/api/your_company/${company.id}`, { sub_district_code: null, district_code: null })).success).toBe(true);
    const issued = await api('POST', `/api/tax_invoice/${id}/actions/issue`);
    expect(issued.success, JSON.stringify(issued)).toBe(true);
    await page.goto(url(`/tax_invoice/${id}`));
    await page.getByTestId('document-etax').click();
    const xmlAnswer = page.waitForResponse((r) => r.url().includes(`/api/tax_invoice/${id}/etax.xml`));
    const xmlFile = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'ไฟล์ XML ตามมาตรฐาน สพธอ.' }).click();
    expect((await xmlAnswer).status()).toBe(200);
    expect((await xmlFile).suggestedFilename()).toMatch(/^tax_invoice-.*\.xml$/);
    const kept = readFileSync((await (await xmlFile).path())!, 'utf8');
    await page.getByText('ข้อมูลบริษัทยังไม่ครบตามมาตรฐาน e-Tax').first().waitFor();
    await page.getByText('รหัส 6 หลักตาม มอก. 1099', { exact: false }).first().waitFor();
    // with the codes back, the issued invoice's file stays the one first made (issue 47 §3: one e-Tax file per
    // document, served byte for byte)
    expect((await api('PATCH', `/api/your_company/${company.id}`, { sub_district_code: company.sub_district_code, district_code: company.district_code })).success).toBe(true);
    const again = await fetch(url(`/api/tax_invoice/${id}/etax.xml`), { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(kept);

    await page.getByTestId('document-etax').click();
    const pdfAnswer = page.waitForResponse((r) => r.url().includes(`/api/tax_invoice/${id}/etax.pdf`));
    const pdfFile = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'PDF/A-3 ภาษาไทย (แนบ XML)' }).click();
    const pdf = await pdfAnswer;
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdfFile).suggestedFilename()).toMatch(/-etax\.pdf$/);

    await page.getByTestId('document-etax-email').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('ส่งอีเมลแบบ e-Tax', { exact: false }).first().waitFor();
    await shot(page, '34-etax-email-dialog');
    await page.locator('#mail-to').fill('buyer@example.com');
    const sent = page.waitForResponse((r) => r.url().includes(`/api/tax_invoice/${id}/etax-email`));
    await dialog.getByRole('button', { name: 'ส่ง', exact: true }).click();
    await shot(page, '34-etax-email-refused');
    // the e2e server has no SMTP: the answer is the Thai "not set up" message, not a silent failure
    expect((await sent).status()).toBe(503);
    await page.getByText('ยังไม่ได้ตั้งค่าการส่งอีเมล', { exact: false }).first().waitFor();
  });

  it('the issuing company\'s form says whether a signing certificate is configured', async () => {
    const company = (await api('GET', '/api/your_company?limit=1')).data[0].id as number;
    await page.goto(url(`/your_company/${company}`));
    const panel = page.getByTestId('etax-certificate');
    await panel.getByText('ใบรับรองลายมือชื่อดิจิทัลสำหรับ e-Tax').waitFor();
    // the e2e server has no ETAX_P12_PATH
    await panel.getByText('ยังไม่ได้ตั้งค่า: ไฟล์ XML ของ e-Tax จะไม่มีลายมือชื่อดิจิทัล', { exact: false }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await shot(page, '34-etax-certificate-panel');
    // other master data has no such panel
    const customer = (await api('GET', '/api/customer?limit=1')).data[0].id as number;
    await page.goto(url(`/customer/${customer}`));
    await page.getByTestId('document-print').or(page.locator('form')).first().waitFor();
    expect(await page.getByTestId('etax-certificate').count()).toBe(0);
  });

  it('shows no e-Tax button on a document the standard does not cover', async () => {
    const quote = (await api('GET', '/api/quotation?limit=1')).data[0].id as number;
    await page.goto(url(`/quotation/${quote}`));
    await page.getByTestId('document-print').waitFor();
    expect(await page.getByTestId('document-etax').count()).toBe(0);
    expect(await page.getByTestId('document-etax-email').count()).toBe(0);
    expect(errors.filter((e) => !/503|MAIL_NOT_CONFIGURED/.test(e))).toEqual([]);
  });
});
