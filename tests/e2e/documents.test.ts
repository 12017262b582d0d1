import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, apiClient, apiSignIn, launchBrowser, shot, signInInBrowser, startServer, watchErrors, type ApiCall, type E2eServer } from './e2e-support.ts';

/**
 * A document's workflow in the browser: the form offers the actions its state
 * allows, a cancellation asks first, and a cancelled document is amended into
 * a new draft linked to it.
 */
describe('documents end to end', () => {
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => new URL(p, server.baseUrl).toString();

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' })).newPage();
    errors = watchErrors(page);
    api = apiClient(server.baseUrl, await apiSignIn(server.baseUrl, 'admin', ADMIN_PASSWORD));
    await signInInBrowser(page, server.baseUrl, 'admin', ADMIN_PASSWORD);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

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
    await expect.poll(async () => (await api('GET', `/api/quotation/${id}`)).data.status).toBe('approved');
    await page.getByRole('button', { name: 'อนุมัติ' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'ยกเลิกเอกสาร' }).waitFor();
    await shot(page, '30-quotation-approved');
    // the cancel action asks with the confirm dialog; its cancel button keeps the document as it is
    await page.getByRole('button', { name: 'ยกเลิกเอกสาร' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'CANCEL' }).click();
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

  it('threw no errors in the page', () => {
    expect(errors).toEqual([]);
  });
});
