import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserSession, closeSession, DEMO_PASSWORD, shot, signInInBrowser, watchErrors, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

/**
 * Issues 37 and 38 §9 in headless Chromium: the attribute-value screen, the
 * sales menu in work order with one item lit, the demo's debit note and
 * over-scan opening as records, and the create-from picker naming the supplier.
 */
describe('spec screens end to end', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  const first = async (entity: string, fields = 'id') => (await api('GET', `/api/${entity}?limit=1&fields=${fields}`)).data[0];

  beforeAll(async () => {
    s = await browserSession({ context: { viewport: { width: 1366, height: 860 } }, timeout: 15_000 });
    ({ server, browser, page, errors, api } = s);
  }, 240_000);
  afterAll(() => closeSession(s));

  it('the attribute-value screen shows one field of one record under the menu\'s tree', async () => {
    const customer = await first('customer', 'id,code,name_th');
    await page.goto(url(`/master_data/customer/${customer.id}/name_th`));
    await expect.poll(() => page.getByTestId('attribute-value-text').innerText()).toBe(customer.name_th);
    const trail = await page.locator('.bo-trail li').allInnerTexts();
    expect(trail).toHaveLength(4);
    expect(trail[1]).toBe('ลูกค้า');
    await shot(page, 'i37-attribute-value');
    // the trail leads back to the record
    await page.locator('.bo-trail').getByRole('link', { name: trail[2]! }).click();
    await page.waitForURL((u) => u.pathname === `/master_data/customer/${customer.id}`);
    // a name that is no field of the page says so
    await page.goto(url(`/master_data/customer/${customer.id}/no_such_field`));
    await page.getByText('"no_such_field" ไม่ใช่ช่องข้อมูลของหน้านี้').waitFor();
  });

  it('the sales menu reads in work order, and one item lights up at a time', async () => {
    await page.goto(url('/tax_invoice/sales_order'));
    await page.getByTestId('create-from').waitFor();
    const menu = page.locator('nav.bo-sidemenu');
    await expect.poll(() => menu.locator('a.active').count()).toBe(1);
    expect(await menu.locator('a.active').getAttribute('href')).toBe('/tax_invoice/sales_order');
    const group = menu.locator('.bo-menu-group').filter({ has: page.locator('a[href="/quotation"]') });
    const hrefs = await group.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['/quotation', '/sales_order', '/billing_note', '/billing_note/tax_invoice', '/receipt', '/receipt/billing_note', '/receipt/sales_order', '/tax_invoice', '/tax_invoice/sales_order', '/credit_note', '/debit_note', '/withholding_tax', '/collection_summary']);
    await shot(page, 'i38-sales-menu-order');
  });

  it('billing from tax invoices is a create-from screen of its own, from the schema (issue 44 §5)', async () => {
    const iv = (await api('GET', '/api/tax_invoice?limit=1&fields=id,doc_no&filter=' + encodeURIComponent('{"status":{"_eq":"issued"}}'))).data[0];
    await page.goto(url(`/billing_note/tax_invoice?source=${iv.id}`));
    await page.getByTestId('create-from').waitFor();
    await page.getByRole('heading', { level: 1 }).filter({ hasText: 'ใบวางบิลจากใบกำกับภาษี' }).waitFor();
    await page.getByText(iv.doc_no).first().waitFor();
    await shot(page, 'i44-billing-note-from-tax-invoice');
    expect(errors).toEqual([]);
  });

  it('the receipt form warns in Thai about tax withheld when its sources carry no WHT rate (issue 44 §6)', async () => {
    const lookup = async (entity: string, code: string) => (await api('GET', `/api/${entity}?limit=1&fields=id&filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`)).data[0].id as number;
    const so = (await api('POST', '/api/sales_order', {
      your_company_id: await lookup('your_company', 'TPT'), customer_id: await lookup('customer', 'C001'), vat_type: 'exclude', items: [{ product_id: await lookup('product', 'P001'), qty: 1, price: 1000 }],
    })).data;
    expect((await api('POST', `/api/sales_order/${so.id}/actions/approve`)).success).toBe(true);
    const rc = (await api('POST', '/api/receipt/from/sales_order', { ids: [so.id], values: { wht_amount: 30 } })).data;
    expect(rc).toMatchObject({ wht_amount: 30, sources_wht_rate: 0 });
    await page.goto(url(`/receipt/${rc.id}`));
    const warning = page.locator('[data-warning="wht_amount"]');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('ไม่ได้ระบุอัตราหัก ณ ที่จ่าย');
    await warning.scrollIntoViewIfNeeded();
    await shot(page, 'i44-receipt-wht-warning');
    // no tax withheld, no warning (the form follows what is typed)
    await page.locator('#field-wht_amount').fill('0');
    await page.locator('#field-wht_amount').press('Tab');
    await expect.poll(() => warning.count()).toBe(0);
  });

  it('the demo\'s debit note and over-scan open as records', async () => {
    const dn = await first('debit_note', 'id,doc_no');
    await page.goto(url(`/debit_note/${dn.id}`));
    await page.getByRole('heading', { level: 1 }).filter({ hasText: dn.doc_no }).waitFor();
    await shot(page, 'i37-demo-debit-note');
    const over = await first('barcodes_scan_over', 'id,code');
    await page.goto(url(`/barcodes_scan_over/${over.id}`));
    await page.locator('input[value="P001"], :text("P001")').first().waitFor();
    await shot(page, 'i37-demo-scan-over');
  });

  it('the warehouse clerk\'s inventory list shows its rows, with no red error', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    try {
      const clerk = await context.newPage();
      const clerkErrors = watchErrors(clerk);
      await signInInBrowser(clerk, server.baseUrl, 'warehouse', DEMO_PASSWORD);
      await clerk.goto(url('/inventory'));
      const list = clerk.getByTestId('entity-list');
      await list.waitFor();
      await expect.poll(() => list.locator('tbody tr').count()).toBeGreaterThan(0);
      expect(await clerk.locator('[role=alert]').count()).toBe(0);
      expect(await list.locator('tbody').innerText()).toContain('WH-BN');
      await shot(clerk, 'i38-warehouse-inventory-list');
      expect(clerkErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('transitions end within the 500 ms deadline, and not at all under reduced motion', async () => {
    const motion = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bo-motion').trim());
    await page.goto(url('/customer'));
    await page.getByTestId('entity-list').waitFor();
    expect(parseFloat(await motion())).toBeGreaterThan(0);
    expect(parseFloat(await motion())).toBeLessThanOrEqual(500);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(motion).toBe('0ms');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await expect.poll(motion).not.toBe('0ms');
  });

  it('receiving from a purchase order asks for the supplier, not a customer', async () => {
    await page.goto(url('/goods_receipt/purchase_order'));
    const picker = page.getByTestId('create-from-customer');
    await picker.waitFor();
    expect(await picker.locator('option').first().innerText()).toBe('ผู้ขายทุกราย (เลือกเพื่อกรอง)');
    expect(errors).toEqual([]);
  });
});
