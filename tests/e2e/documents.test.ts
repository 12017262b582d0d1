import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * A document's workflow in the browser: the form offers the actions its state
 * allows, a cancellation asks first, and a cancelled document is amended into
 * a new draft linked to it.
 */
describe('documents end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let token: string;
  const url = (p: string) => s.url(p);

  beforeAll(async () => {
    s = await browserSession();
    ({ page, errors, api, token } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('approves, cancels (after asking) and amends a quotation from its form', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0].id as number;
    const made = await api('POST', '/api/quotation', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), customer_id: await first('customer'),
      items: [{ product_id: await first('product'), qty: 10, price: 250 }],
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    const id = made.data.id as number;
    await page.goto(url(`/quotation/${id}`));
    await page.getByRole('button', { name: 'อนุมัติ' }).click();
    // posting asks once, naming what it does (issue 38 §7)
    await page.getByRole('dialog').getByText('แก้ไขไม่ได้อีก', { exact: false }).waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'อนุมัติ' }).click();
    await expect.poll(async () => (await api('GET', `/api/quotation/${id}`)).data.status).toBe('approved');
    await page.getByRole('button', { name: 'อนุมัติ' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'ยกเลิกเอกสาร' }).waitFor();
    await shot(page, '30-quotation-approved');
    // the cancel action asks with the confirm dialog; its cancel button keeps the document as it is
    await page.getByRole('button', { name: 'ยกเลิกเอกสาร' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'ยกเลิก', exact: true }).click();
    expect((await api('GET', `/api/quotation/${id}`)).data.status).toBe('approved');
    await page.getByRole('button', { name: 'ยกเลิกเอกสาร' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'ยกเลิกเอกสาร' }).click();
    await expect.poll(async () => (await api('GET', `/api/quotation/${id}`)).data.status).toBe('cancelled');
    await page.getByRole('button', { name: 'แก้ไขเป็นฉบับใหม่' }).click();
    await page.waitForURL((u) => /\/quotation\/\d+$/.test(u.pathname) && !u.pathname.endsWith(`/${id}`));
    const amendedId = Number(page.url().split('/').pop());
    const amended = (await api('GET', `/api/quotation/${amendedId}`)).data;
    expect(amended).toMatchObject({ amended_from: id, status: 'draft' });
    await page.getByRole('button', { name: 'อนุมัติ' }).waitFor();
    await shot(page, '31-quotation-amended');
  });

  it('the form recomputes totals as you type, and the server stores what it showed', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0].id as number;
    const made = await api('POST', '/api/quotation', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), customer_id: await first('customer'), vat_type: 'exclude',
      items: [{ product_id: await first('product'), qty: 10, price: 250 }],
    });
    const id = made.data.id as number;
    expect(made.data).toMatchObject({ subtotal: 2500, vat_amount: 175, total_amount: 2675 });
    await page.goto(url(`/quotation/${id}`));
    const qty = page.locator('#items-0-qty');
    await qty.waitFor();
    await qty.fill('12');
    await qty.press('Tab');
    // 12 × 250 = 3,000; VAT 7 % = 210; 3,210 in all: shown before anything is saved
    await expect.poll(async () => page.locator('#items-0-amount').inputValue()).toMatch(/^3,?000(\.00)?$/);
    await expect.poll(async () => page.locator('#field-total_amount').inputValue()).toMatch(/^3,?210(\.00)?$/);
    await shot(page, '32-quotation-live-totals', true);
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await api('GET', `/api/quotation/${id}`)).data.total_amount).toBe(3210);
    const stored = (await api('GET', `/api/quotation/${id}`)).data;
    expect(stored).toMatchObject({ subtotal: 3000, vat_amount: 210, total_amount: 3210, net_amount: 3210 });
    expect(stored.items[0].amount).toBe(3000);
  });

  it('prints the quotation from its form: the PDF opens and reads the total in Thai words', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0].id as number;
    const made = await api('POST', '/api/quotation', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), customer_id: await first('customer'), vat_type: 'exclude',
      items: [{ product_id: await first('product'), qty: 3, price: 1500 }],
    });
    const id = made.data.id as number;
    expect(made.data.total_amount).toBe(4815);
    await page.goto(url(`/quotation/${id}`));
    await page.getByTestId('document-print').click();
    const answer = page.waitForResponse((r) => r.url().includes(`/api/quotation/${id}/pdf`));
    const opened = page.context().waitForEvent('page');
    await page.getByRole('menuitem', { name: 'PDF ภาษาไทย' }).click();
    const res = await answer;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('application/pdf');
    const viewer = await opened;
    await expect.poll(() => viewer.url()).toMatch(/^blob:/);
    await viewer.close();
    // the same document as the server sends it (a blob URL is readable only inside the page, and the CSP keeps fetch to 'self')
    const bytes = Buffer.from(await (await fetch(url(`/api/quotation/${id}/pdf?lang=th`), { headers: { authorization: `Bearer ${token}` } })).arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const dir = mkdtempSync(join(tmpdir(), 'bo-e2e-pdf-'));
    try {
      writeFileSync(join(dir, 'q.pdf'), bytes);
      execFileSync('pdftotext', ['-raw', join(dir, 'q.pdf'), join(dir, 'q.txt')]);
      const text = readFileSync(join(dir, 'q.txt'), 'utf8').normalize('NFKC').replace(/\s+/g, '');
      // 4,815.00 baht in words, as bahttext writes it
      expect(text).toContain('สี่พันแปดร้อยสิบห้าบาทถ้วน'.normalize('NFKC'));
      expect(text).toContain('ใบเสนอราคา');
      // a line names its product by code and name, not by its id
      const product = (await api('GET', `/api/product/${made.data.items[0].product_id}`)).data;
      expect(text).toContain(`${product.code}${product.name_th}`.normalize('NFKC').replace(/\s+/g, ''));
      // a page as a person sees it
      execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', join(dir, 'q.pdf'), join(ARTIFACTS, '33-quotation-pdf')]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exports the list as CSV, filtered as shown', async () => {
    await page.goto(url('/quotation'));
    await page.getByTestId('list-export').click();
    const file = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'CSV (ข้อมูลดิบ)' }).click();
    const d = await file;
    // named after the screen and the business day (issue 38 §5)
    expect(d.suggestedFilename()).toMatch(/^ใบเสนอราคา-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await d.path(), 'utf8');
    const total = (await api('GET', '/api/quotation?limit=1&meta=total_count')).meta.total_count as number;
    // a header line and one line per quotation
    expect(csv.trim().split(/\r?\n/).length).toBe(total + 1);
  });

  it('the product picker of a quotation shows what the site setting asks for, and follows a change at once', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0];
    const product = await first('product');
    const made = await api('POST', '/api/quotation', {
      doc_date: '2026-11-20', your_company_id: (await first('your_company')).id, customer_id: (await first('customer')).id,
      items: [{ product_id: product.id, qty: 1, price: 10 }],
    });
    await page.goto(url(`/quotation/${made.data.id}`));
    const picker = page.locator('#items-0-product_id');
    await expect.poll(() => picker.inputValue()).toBe(`${product.code} ${product.name_th}`);
    const settings = (await api('GET', '/api/setting_site?sort=id')).data[0];
    try {
      expect((await api('PATCH', `/api/setting_site/${settings.id}`, { product_dropdown_quotation: 'code' })).success).toBe(true);
      await expect.poll(() => picker.inputValue(), { timeout: 5000 }).toBe(product.code);
    } finally {
      await api('PATCH', `/api/setting_site/${settings.id}`, { product_dropdown_quotation: 'code_name' });
    }
  });

  it('threw no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
