import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * The create-from screen in the browser (issue 9): a receipt made from part of
 * a sales order at /receipt/sales_order, what is left shown afterwards, and the
 * collection summary with its money right-aligned.
 */
describe('finance screens end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);

  beforeAll(async () => {
    s = await browserSession();
    ({ page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('a hand-typed receipt line picks one of the customer\'s open bills, and settles it', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1&sort=id`)).data[0].id as number;
    const customer = await first('customer');
    const company = await first('your_company');
    /** A bill of 2,675 (VAT excluded) from an approved order; issued unless asked not to. */
    const bill = async (issue: boolean) => {
      const so = await api('POST', '/api/sales_order', { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: await first('product'), qty: 10, price: 250 }] });
      expect(so.success, JSON.stringify(so)).toBe(true);
      await api('POST', `/api/sales_order/${so.data.id}/actions/approve`);
      const bn = (await api('POST', '/api/billing_note/from/sales_order', { ids: [so.data.id] })).data;
      if (issue) await api('POST', `/api/billing_note/${bn.id}/actions/issue`);
      return (await api('GET', `/api/billing_note/${bn.id}`)).data;
    };
    const open = await bill(true);
    const draft = await bill(false);
    // dated today, as the bills are: a receipt is not dated before the bill it settles (issue 44 §4)
    const made = await api('POST', '/api/receipt', { your_company_id: company, customer_id: customer, vat_type: 'exclude', payment_method: 'cash', items: [{ description: 'รับชำระตามใบวางบิล', amount: 1000 }] });
    expect(made.success, JSON.stringify(made)).toBe(true);
    const asked: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/api/billing_note?')) asked.push(decodeURIComponent(r.url())); });
    await page.goto(url(`/receipt/${made.data.id}`));
    const picker = page.locator('#items-0-billing_note_id');
    await picker.click();
    await picker.fill(open.bill_no.slice(0, 2));
    const options = page.getByRole('option');
    await expect.poll(async () => (await options.allInnerTexts()).join(' ')).toContain(open.bill_no);
    expect((await options.allInnerTexts()).join(' ')).not.toContain(draft.bill_no);
    // the picker asks for this customer's open bills only
    expect(asked.some((u) => u.includes('"_in":["issued","partially_paid"]') && u.includes(`"customer_id":{"_eq":${customer}}`)), asked.join('\n')).toBe(true);
    await options.filter({ hasText: open.bill_no }).first().click();
    await shot(page, '41-receipt-line-names-bill');
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await api('GET', `/api/receipt/${made.data.id}`)).data.items[0]?.billing_note_id ?? null).toBe(open.id);
    const posted = await api('POST', `/api/receipt/${made.data.id}/actions/post`);
    expect(posted.success, JSON.stringify(posted)).toBe(true);
    expect((await api('GET', `/api/billing_note/${open.id}`)).data.status).toBe('partially_paid');
  });

  it('makes a receipt from part of a sales order, and shows what is left', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1&sort=id`)).data[0].id as number;
    const customer = await first('customer');
    const made = await api('POST', '/api/sales_order', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), customer_id: customer, vat_type: 'exclude',
      items: [{ product_id: await first('product'), qty: 10, price: 250 }, { product_id: await first('product'), qty: 2, price: 1000 }],
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    const so = (await api('POST', `/api/sales_order/${made.data.id}/actions/approve`)).data;
    await page.goto(url('/receipt/sales_order'));
    await page.getByTestId('create-from-customer').selectOption(String(customer));
    await page.getByRole('checkbox', { name: so.doc_no }).check();
    const lines = page.getByTestId('create-from-lines');
    await lines.waitFor();
    await expect.poll(async () => lines.getByTestId('remaining').allInnerTexts()).toEqual(['2,675.00', '2,140.00']);
    const inputs = lines.locator('input');
    await inputs.nth(0).fill('1070');
    await inputs.nth(1).fill('0');
    // each line names its product by code and name
    const product = (await api('GET', `/api/product/${so.items[0].product_id}`)).data;
    expect(await lines.getByTestId('product').first().innerText()).toBe(`${product.code} ${product.name_th}`);
    // the new receipt's header values are set here, before it is made
    const header = page.getByTestId('create-from-header');
    // today in Bangkok, as the receipt of the test before: a receipt is not dated before the last one issued in its series
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok' }).format(new Date());
    await header.getByLabel('วันที่', { exact: true }).fill(today);
    await header.getByLabel('หมายเหตุ', { exact: true }).fill('รับชำระงวดแรกตามที่ตกลง');
    await shot(page, '40-receipt-from-sales-order', true);
    await page.getByTestId('create-from-submit').click();
    await page.waitForURL((u) => /\/receipt\/\d+$/.test(u.pathname));
    const id = Number(page.url().split('/').pop());
    const receipt = (await api('GET', `/api/receipt/${id}`)).data;
    expect(receipt).toMatchObject({ customer_id: customer, status: 'draft', subtotal: 1070, amount_before_vat: 1000, vat_amount: 70, total_amount: 1070, doc_date: today, remark: 'รับชำระงวดแรกตามที่ตกลง' });
    expect(receipt.items).toEqual([expect.objectContaining({ source_entity: 'sales_order', source_line_id: so.items[0].id, amount: 1070 })]);
    // the new receipt's form opens with its post action; posted, the order has 1,605 (1,500 + VAT) left on that line
    await page.getByRole('button', { name: 'บันทึกรับชำระ' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'บันทึกรับชำระ' }).click();
    await expect.poll(async () => (await api('GET', `/api/receipt/${id}`)).data.status).toBe('posted');
    await page.goto(url('/receipt/sales_order'));
    await page.getByTestId('create-from-customer').selectOption(String(customer));
    await page.getByRole('checkbox', { name: so.doc_no }).check();
    await expect.poll(async () => page.getByTestId('create-from-lines').getByTestId('remaining').allInnerTexts()).toEqual(['1,605.00', '2,140.00']);
    expect(errors).toEqual([]);
  });

  it('the tax invoice form follows the site settings: ship-to fields only when switched on, invoice type from tax_invoice', async () => {
    const settings = (await api('GET', '/api/setting_site?sort=id')).data[0];
    const set = async (values: Record<string, unknown>) => expect((await api('PATCH', `/api/setting_site/${settings.id}`, values)).success).toBe(true);
    const field = (name: string) => page.locator(`form[data-entity=tax_invoice] [data-field=${name}]`);
    try {
      await set({ is_enable_customer_ship_to_details: false, tax_invoice: 'full' });
      await page.goto(url('/tax_invoice/create'));
      await field('buyer_name').waitFor();
      expect(await field('ship_to_name').count()).toBe(0);
      expect(await field('ship_to_address').count()).toBe(0);
      await expect.poll(() => field('invoice_type').innerText()).toContain('เต็มรูป');

      await set({ is_enable_customer_ship_to_details: true, tax_invoice: 'abbreviated' });
      await page.goto(url('/tax_invoice/create'));
      await field('ship_to_name').waitFor();
      expect(await field('ship_to_name').innerText()).toContain('ชื่อสถานที่จัดส่ง');
      expect(await field('ship_to_address').count()).toBe(1);
      await expect.poll(() => field('invoice_type').innerText()).toContain('อย่างย่อ');
      await shot(page, '42-tax-invoice-form-settings', true);
    } finally {
      await set({ is_enable_customer_ship_to_details: false, tax_invoice: 'full' });
    }
    expect(errors).toEqual([]);
  });

  it('the withholding certificate shows its tax as you type, and the server stores what it showed', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1&sort=id`)).data[0].id as number;
    const made = await api('POST', '/api/withholding_tax', {
      doc_date: '2026-11-20', your_company_id: await first('your_company'), payee_type: 'supplier', supplier_id: await first('supplier'),
      income_type: '40_8', income_description: 'ค่าบริการขนส่ง', pnd_form: 'pnd53', wht_rate: '3', amount_paid: 1000,
    });
    expect(made.success, JSON.stringify(made)).toBe(true);
    expect(made.data.tax_amount).toBe(30);
    const id = made.data.id as number;
    await page.goto(url(`/withholding_tax/${id}`));
    const paid = page.locator('#field-amount_paid');
    await paid.waitFor();
    await expect.poll(() => page.locator('#field-tax_amount').inputValue()).toBe('30.00');
    // typed key by key, as a person types (the money input formats as it goes)
    await paid.click();
    await paid.press('Control+a');
    await paid.pressSequentially('333.5', { delay: 20 });
    // 333.50 × 3 % = 10.005 → 10.01 (half-up to the satang), shown while typing, before the field is left or saved
    await expect.poll(() => page.locator('#field-tax_amount').inputValue()).toBe('10.01');
    await paid.press('Tab');
    await page.locator('[data-field=wht_rate] .p-dropdown').click();
    await page.getByRole('option', { name: '5% (ค่าเช่า)' }).click();
    // 333.50 × 5 % = 16.675 → 16.68
    await expect.poll(() => page.locator('#field-tax_amount').inputValue()).toBe('16.68');
    await shot(page, '43-withholding-live-tax', true);
    await page.keyboard.press('Control+s');
    await expect.poll(async () => (await api('GET', `/api/withholding_tax/${id}`)).data.tax_amount).toBe(16.68);
    expect((await api('GET', `/api/withholding_tax/${id}`)).data).toMatchObject({ amount_paid: 333.5, wht_rate: '5' });
    expect(errors).toEqual([]);
  });

  it('shows the collection summary with totals, money right-aligned', async () => {
    await page.goto(url('/collection_summary'));
    const table = page.getByTestId('collection-table');
    await table.waitFor();
    // the period is chosen with the app's Buddhist-era date picker (issue 38 §9), never the browser's date field
    expect(await page.getByTestId('collection-summary').locator('input[type="date"]').count()).toBe(0);
    await expect.poll(() => page.getByTestId('collection-to').locator('input').inputValue()).toMatch(/25\d\d/);
    const api2 = (await api('GET', `/api/report/collection_summary?from=${await page.getByTestId('collection-from').getAttribute('data-value')}&to=${await page.getByTestId('collection-to').getAttribute('data-value')}`)).data;
    expect(api2.customers.length).toBeGreaterThan(0);
    const totals = page.getByTestId('collection-totals');
    const outstanding = totals.locator('[data-col="outstanding"]');
    expect(await outstanding.innerText()).toBe(new Intl.NumberFormat('en-US', { minimumFractionDigits: 2 }).format(api2.totals.outstanding));
    expect(await outstanding.evaluate((el) => getComputedStyle(el).textAlign)).toBe('right');
    await shot(page, '41-collection-summary', true);
    expect(errors).toEqual([]);
  });
});
