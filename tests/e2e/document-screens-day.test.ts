import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

type Row = Record<string, any>;

/**
 * Issue 38 §3, §4 and §5 in Thai: choosing a customer fills its contact and salesperson, choosing
 * a product fills its unit and price (the customer's price list first, else the product's own price)
 * and its quantity starts at 1; a supplier fills a purchase order's contact, credit term and address;
 * a new receipt shows its default company and opens with no list popped open;
 * a list's search finds a customer's documents by the customer's Thai name;
 * the XLSX of ใบวางบิล is named by the screen's title and the Buddhist-era day, carries Thai
 * status labels, no ids, and real date cells in the Thai calendar.
 */
describe('an accountant’s day on the document screens', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  const byCode = async (entity: string, code: string): Promise<Row> => {
    const filter = encodeURIComponent(JSON.stringify({ code: { _eq: code } }));
    const rows = (await api('GET', `/api/${entity}?filter=${filter}&limit=1`)).data as Row[];
    expect(rows.length, `${entity} ${code} in the demo data`).toBe(1);
    return rows[0]!;
  };

  beforeAll(async () => {
    s = await browserSession({ context: { acceptDownloads: true } });
    ({ page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  /** Types into a link field and chooses the first option the picker offers. */
  async function choose(fieldId: string, text: string): Promise<void> {
    await page.locator(`#${fieldId}`).click();
    await page.keyboard.type(text);
    const options = page.locator('.bo-link-panel li[role=option]');
    await options.first().waitFor();
    // the search has settled on the one record typed (its code is unique)
    await expect.poll(() => options.count(), { message: `options for ${text}: ${await page.locator('.bo-link-panel').innerText()}` }).toBe(1);
    await options.first().click();
    await expect.poll(() => page.locator('.bo-link-panel').count()).toBe(0);
  }

  it('choosing a customer fills its contact and salesperson', async () => {
    const c001 = await byCode('customer', 'C001');
    const emp = await byCode('staff', 'EMP003');
    expect(c001.contact_name).toBe('คุณสุนิสา ทองประเสริฐ');
    await page.goto(url('/quotation/create'));
    const form = page.locator('form[data-entity=quotation]');
    await form.waitFor();
    // empty before the customer is chosen
    expect(await page.locator('#field-contact_name').inputValue()).toBe('');
    await choose('field-customer_id', 'C001');
    await expect.poll(() => page.locator('#field-contact_name').inputValue()).toBe(c001.contact_name);
    await expect.poll(() => page.locator('#field-salesperson_id').inputValue()).toContain(emp.first_name_th);
    // the credit term held its schema default 0, never touched: it takes the customer's
    expect(Number(c001.credit_term_days)).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#field-credit_term_days').inputValue()).toBe(String(c001.credit_term_days));
    await shot(page, 'day-01-customer-fills');
    expect(errors).toEqual([]);
  }, 120_000);

  it('choosing a product fills its unit and price: the customer’s price list first, else the product’s price', async () => {
    // C010 buys on PL-RETAIL: P001 is 395 there (360 as a product); P003 is not on it (430 as a product)
    const p001 = await byCode('product', 'P001');
    const p003 = await byCode('product', 'P003');
    expect(Number(p001.price)).toBe(360);
    await page.goto(url('/quotation/create'));
    await page.locator('form[data-entity=quotation]').waitFor();
    await choose('field-customer_id', 'C010');
    for (const [i, p, price] of [[0, p001, 395], [1, p003, 430]] as const) {
      await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
      await page.keyboard.press('Escape');
      await choose(`items-${i}-product_id`, String(p.code));
      await expect.poll(() => page.locator(`#items-${i}-unit`).inputValue(), { message: `line ${i + 1} unit` }).toBe(p.unit);
      await expect.poll(async () => Number((await page.locator(`#items-${i}-price`).inputValue()).replace(/,/g, '')), { message: `line ${i + 1} price` }).toBe(price);
      // the quantity starts at 1 (the schema default of qty), so the line's amount is its price at once
      expect(await page.locator(`#items-${i}-qty`).inputValue()).toBe('1');
      await expect.poll(async () => Number((await page.locator(`#items-${i}-amount`).inputValue()).replace(/,/g, '')), { message: `line ${i + 1} amount` }).toBe(price);
    }
    await shot(page, 'day-02-product-fills');
    expect(errors).toEqual([]);
  }, 120_000);

  it('a new receipt shows the default company, opens on the customer with no list open; its amount sits under its heading', async () => {
    const settings = (await api('GET', '/api/setting_site?fields=id,default_company_id')).data[0];
    const company = (await api('GET', `/api/your_company/${settings.default_company_id}`)).data;
    expect(company.name_th).toBeTruthy();
    await page.goto(url('/receipt/create'));
    const form = page.locator('form[data-entity=receipt]');
    await form.waitFor();
    // the issuing company the server would give (site setting default_company_id) is shown, not an empty picker
    await expect.poll(() => page.locator('#field-your_company_id').inputValue()).toBe(company.name_th);
    // the focus is on the first field a person fills (the customer), and no list popped open
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-customer_id');
    expect(await page.locator('.bo-link-panel').count()).toBe(0);
    // the company list: no empty picture boxes for companies without a logo
    const logos = ((await api('GET', '/api/your_company?fields=id,logo')).data as Row[]).filter((r) => r.logo).length;
    await page.locator('#field-your_company_id').click();
    await page.locator('.bo-link-panel li[role=option]').first().waitFor();
    expect(await page.locator('.bo-link-panel .bo-thumb-empty').count()).toBe(0);
    expect(await page.locator('.bo-link-panel .bo-thumb').count()).toBe(logos);
    await page.keyboard.press('Escape');
    // a line: the amount's input is under the จำนวนเงิน heading, no wide empty box between it and รายละเอียด
    await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    const grid = page.locator('[data-lines-grid]');
    const head = (await grid.locator('thead th', { hasText: 'จำนวนเงิน' }).boundingBox())!;
    const amount = (await page.locator('#items-0-amount').boundingBox())!;
    const description = (await page.locator('#items-0-description').boundingBox())!;
    expect(amount.x).toBeGreaterThanOrEqual(head.x - 1);
    expect(amount.x + amount.width).toBeLessThanOrEqual(head.x + head.width + 1);
    expect(description.width).toBeGreaterThan(amount.width * 2);
    await shot(page, 'day-04-new-receipt');
    expect(errors).toEqual([]);
  }, 120_000);

  it('choosing a supplier on a purchase order fills its contact, credit term and address', async () => {
    const supplier = (await api('GET', '/api/supplier?limit=1&sort=code&fields=id,code,contact_name,credit_term_days,address_line')).data[0] as Row;
    expect(supplier.contact_name && supplier.address_line, 'a demo supplier with a contact and an address').toBeTruthy();
    await page.goto(url('/purchase_order/create'));
    await page.locator('form[data-entity=purchase_order]').waitFor();
    expect(await page.locator('#field-supplier_address').inputValue()).toBe('');
    await choose('field-supplier_id', String(supplier.code));
    await expect.poll(() => page.locator('#field-contact_name').inputValue()).toBe(supplier.contact_name);
    await expect.poll(() => page.locator('#field-credit_term_days').inputValue()).toBe(String(supplier.credit_term_days));
    await expect.poll(() => page.locator('#field-supplier_address').inputValue()).toBe(supplier.address_line);
    await shot(page, 'day-05-supplier-fills');
    expect(errors).toEqual([]);
  }, 120_000);

  it('the lists’ search finds a customer’s documents by the customer’s Thai name', async () => {
    const c001 = await byCode('customer', 'C001');
    for (const [entity, numberField] of [['billing_note', 'bill_no'], ['quotation', 'doc_no']] as const) {
      const filter = encodeURIComponent(JSON.stringify({ customer_id: { _eq: c001.id } }));
      const own = ((await api('GET', `/api/${entity}?filter=${filter}&limit=500`)).data as Row[]).map((r) => String(r[numberField]));
      const others = ((await api('GET', `/api/${entity}?limit=500`)).data as Row[]).filter((r) => r.customer_id !== c001.id).map((r) => String(r[numberField]));
      expect(own.length, `${entity} of C001 in the demo`).toBeGreaterThan(0);
      expect(others.length, `${entity} of other customers in the demo`).toBeGreaterThan(0);
      await page.goto(url(`/${entity}`));
      const list = page.getByTestId('entity-list');
      await list.locator('tbody tr').first().waitFor();
      await page.getByRole('searchbox', { name: 'ค้นหา', exact: true }).fill('สยามฟู้ดแพ็ค');
      // the rows shown are exactly C001's documents (the search is not on the number)
      await expect.poll(async () => {
        const text = await list.locator('tbody').innerText();
        return own.every((n) => text.includes(n)) && !others.some((n) => text.includes(n));
      }, { message: `${entity}: search by the customer's name`, timeout: 10_000 }).toBe(true);
      if (entity === 'billing_note') await shot(page, 'day-03-search-customer-name');
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('the ใบวางบิล XLSX: named by title and Buddhist-era day, Thai labels, no ids, Thai-calendar date cells', async () => {
    const meta = (await api('GET', '/api/meta/entities/billing_note')).data.entity;
    const statusLabels = new Map<string, string>((meta.fields.status.options as Row[]).map((o) => [o.value, o.label.th]));
    const c001 = await byCode('customer', 'C001');
    await page.goto(url('/billing_note'));
    await page.getByTestId('entity-list').locator('tbody tr').first().waitFor();
    await page.getByTestId('list-export').click();
    const waiting = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Excel (XLSX)' }).click();
    const download = await waiting;
    const name = download.suggestedFilename();
    const m = /^ใบวางบิล-(\d{4})-(\d{2})-(\d{2})\.xlsx$/.exec(name);
    expect(m, name).not.toBeNull();
    // the business day (Bangkok), in the Buddhist era: within a day of now (the test may run across midnight)
    const named = Date.UTC(Number(m![1]) - 543, Number(m![2]) - 1, Number(m![3]));
    const bangkokNow = Date.now() + 7 * 3600_000;
    expect(Math.abs(bangkokNow - named - 12 * 3600_000)).toBeLessThan(36 * 3600_000);

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const headers: string[] = [];
    sheet.getRow(1).eachCell({ includeEmpty: true }, (c, col) => { headers[col] = String(c.value ?? ''); });
    const column = (re: RegExp) => headers.findIndex((h) => h && re.test(h));
    // no id column, no customer id
    expect(headers.filter((h) => /(^|\W)(id|ID|Id)(\W|$)|_id\b/.test(h ?? '')), headers.join(' | ')).toEqual([]);
    const rows: unknown[][] = [];
    sheet.eachRow((r, i) => { if (i > 1) rows.push(headers.map((_, col) => r.getCell(col).value)); });
    expect(rows.length).toBeGreaterThan(0);
    // status cells carry Thai labels, never the codes
    const statusCol = column(/^สถานะ$/);
    expect(statusCol, headers.join(' | ')).toBeGreaterThan(0);
    const statuses = rows.map((r) => String(r[statusCol]));
    for (const s of statuses) {
      expect([...statusLabels.values()], s).toContain(s);
      expect([...statusLabels.keys()]).not.toContain(s);
    }
    expect(statuses).toContain(statusLabels.get('issued'));
    // the customer as people see it: its code and its name
    const customerCols = headers.map((h, i) => (h?.startsWith('ลูกค้า') ? i : -1)).filter((i) => i > 0);
    expect(customerCols.length, headers.join(' | ')).toBeGreaterThan(0);
    const siam = rows.find((r) => customerCols.some((c) => String(r[c]).includes('C001')));
    expect(siam, 'a row showing the customer code C001').toBeDefined();
    expect(customerCols.some((c) => String(siam![c]).includes(c001.name_th))).toBe(true);
    expect(customerCols.every((c) => rows.every((r) => typeof r[c] !== 'number'))).toBe(true);
    // the bill date: a real date cell, shown in the Thai (Buddhist) calendar
    const dateCol = column(/^วันที่/);
    expect(dateCol, headers.join(' | ')).toBeGreaterThan(0);
    const dated = sheet.getRow(2).getCell(dateCol);
    expect(dated.value).toBeInstanceOf(Date);
    expect(dated.numFmt).toMatch(/\[\$-[0-9A-F]*07041E\]/i);
    expect(errors).toEqual([]);
  }, 120_000);
});
