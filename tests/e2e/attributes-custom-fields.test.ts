import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * Issue 11 §2 and §3 in headless Chromium: a brand attribute's page lists it, its options
 * with how many products use each, adds an option, refuses deleting one in use (with the
 * count), and an option's page lists its products; an administrator adds a custom field to
 * customers and the customer form shows it.
 */
describe('attribute pages and custom fields end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let attrId = 0;
  let usedOption = 0;
  let productCode = '';
  const url = (path: string) => s.url(path);

  beforeAll(async () => {
    s = await browserSession({
      context: { viewport: { width: 1366, height: 860 } },
      timeout: 10_000,
      arrange: async (api) => {
        // the demo business carries film type, brand, grade and colour attributes
        const demo = (await api('GET', '/api/product/attribute/list')).data as { code: string; options: { code: string; product_ids: number[] }[] }[];
        expect(demo.map((a) => a.code)).toEqual(['BRAND', 'COLOR', 'FILM', 'GRADE']);
        expect(demo.find((a) => a.code === 'FILM')!.options.map((o) => [o.code, o.product_ids.length])).toEqual([['STRETCH', 4], ['SHRINK', 1]]);
        const attr = await api('POST', '/api/product_attribute', { code: 'E2E-BRAND', name_th: 'ยี่ห้อทดสอบ', name_en: 'Test brand', kind: 'brand' });
        attrId = attr.data.id;
        usedOption = (await api('POST', '/api/attribute_option', { attribute_id: attrId, code: 'ACME', name_th: 'แอคมี' })).data.id;
        const products = await api('GET', '/api/product?limit=2&sort=code&fields=id,code');
        productCode = products.data[0].code;
        for (const p of products.data) {
          const res = await api('PATCH', `/api/product/${p.id}`, { attributes: [{ attribute_id: attrId, option_id: usedOption }] });
          expect(res.success, JSON.stringify(res)).toBe(true);
        }
      },
    });
    ({ page, errors, api } = s);
  }, 240_000);

  afterAll(() => closeSession(s));

  it('lists the brand attributes, its options and their products; refuses deleting an option in use', async () => {
    await page.goto(url('/brand'));
    const row = page.getByTestId('attribute-table').locator('tr[data-code="E2E-BRAND"]');
    await row.waitFor();
    await expect.poll(async () => row.locator('td').nth(3).textContent(), { timeout: 10_000 }).toBe('1');
    await page.locator('.bo-sidemenu a[href="/brand"]').first().waitFor();
    await row.locator('a').click();
    await page.waitForURL(url(`/brand/${attrId}`));
    const options = page.getByTestId('option-table');
    await options.locator('tr[data-code="ACME"]').waitFor();
    await expect.poll(async () => options.locator('tr[data-code="ACME"] td').nth(4).textContent(), { timeout: 10_000 }).toBe('2');

    const form = page.locator('form[aria-label="เพิ่มตัวเลือก"]');
    await form.locator('input[name="code"]').fill('BETA');
    await form.locator('input[name="name_th"]').fill('เบต้า');
    await form.getByRole('button', { name: 'เพิ่มตัวเลือก' }).click();
    await options.locator('tr[data-code="BETA"]').waitFor();
    await shot(page, 'attributes-01-brand-options');

    await options.locator('tr[data-code="ACME"] button').click();
    const refusal = page.locator('.bo-admin-error');
    await refusal.waitFor();
    await expect(refusal.textContent()).resolves.toContain('2');
    expect((await api('GET', `/api/attribute_option/${usedOption}`)).success).toBe(true);
    await options.locator('tr[data-code="BETA"] button').click();
    await options.locator('tr[data-code="BETA"]').waitFor({ state: 'detached' });

    await options.locator('tr[data-code="ACME"] a').click();
    await page.waitForURL(url(`/brand/${attrId}/${usedOption}`));
    const products = page.getByTestId('option-products');
    await products.waitFor();
    await expect(products.locator('tr').count()).resolves.toBe(2);
    await expect(products.textContent()).resolves.toContain(productCode);
    await shot(page, 'attributes-02-option-products');
  });

  it('filters the product list by an attribute option', async () => {
    await page.goto(url('/product'));
    await page.getByRole('button', { name: 'ตัวกรอง' }).click();
    const input = page.locator('#filter-attributes-option_id');
    await input.click();
    await input.fill('แอคมี');
    await page.getByRole('option', { name: 'แอคมี', exact: true }).click();
    await expect.poll(async () => page.locator('table tbody tr').count(), { timeout: 10_000 }).toBe(2);
    await expect(page.locator('table tbody').textContent()).resolves.toContain(productCode);
    await shot(page, 'attributes-03-product-filter');
    // the product form edits its attribute values as lines
    await page.locator('table tbody tr').filter({ hasText: productCode }).first().click();
    const lines = page.locator('form[data-entity="product"] [data-field="attributes"]');
    await lines.waitFor();
    await lines.scrollIntoViewIfNeeded();
    await expect.poll(async () => lines.locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)), { timeout: 10_000 }).toContain('แอคมี');
    await shot(page, 'attributes-04-product-form');
  });

  it('adds a custom field to customers and the customer form shows it', async () => {
    await page.goto(url('/custom_field'));
    await page.getByTestId('custom-field-table').waitFor();
    await page.locator('.bo-sidemenu a[href="/custom_field"]').first().waitFor();
    const form = page.locator('form[aria-label="เพิ่มฟิลด์"]');
    await form.locator('input[name="cf-name"]').fill('line_id');
    await form.locator('input[name="cf-label-th"]').fill('ไลน์ไอดี');
    await form.locator('input[name="cf-label-en"]').fill('LINE ID');
    await form.getByRole('button', { name: 'เพิ่มฟิลด์' }).click();
    await page.getByTestId('custom-field-table').locator('tr[data-name="cf_line_id"]').waitFor();
    await shot(page, 'custom-fields-01-added');

    await page.goto(url('/customer/create'));
    const field = page.locator('form[data-entity="customer"] [data-field="cf_line_id"]');
    await field.waitFor();
    await expect(field.locator('label').textContent()).resolves.toContain('ไลน์ไอดี');
    await shot(page, 'custom-fields-02-customer-form');

    // fill it in on a customer, find the customer by filtering on it, and export it
    const customers = (await api('GET', '/api/customer?limit=2&sort=id')).data as { id: number; code: string }[];
    await page.goto(url(`/customer/${customers[0]!.id}`));
    const input = page.locator('#field-cf_line_id');
    await input.waitFor();
    await input.fill('@thaipack-e2e');
    await page.keyboard.press('Control+s');
    await page.locator('.p-toast-message-success').first().waitFor();
    await expect.poll(async () => (await api('GET', `/api/customer/${customers[0]!.id}`)).data.cf_line_id).toBe('@thaipack-e2e');
    await page.goto(url('/customer'));
    await page.getByRole('button', { name: 'ตัวกรอง' }).click();
    await page.locator('#filter-cf_line_id').fill('thaipack-e2e');
    await expect.poll(() => page.locator('[data-testid=entity-list] tbody tr').count(), { timeout: 10_000 }).toBe(1);
    await expect(page.locator('[data-testid=entity-list] tbody tr').first().textContent()).resolves.toContain(customers[0]!.code);
    // the column chooser offers the custom field; shown, it is in the list and in the export
    await page.locator('.bo-columns').click();
    await page.locator('.bo-columns-panel .p-multiselect-item').filter({ hasText: 'ไลน์ไอดี' }).click();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid=entity-list] tbody tr').first().textContent()).toContain('@thaipack-e2e');
    await page.getByTestId('list-export').click();
    const file = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'CSV (ข้อมูลดิบ)' }).click();
    const csv = readFileSync(await (await file).path(), 'utf8').trim().split(/\r?\n/);
    // the header and the one filtered customer, carrying the custom field
    expect(csv).toHaveLength(2);
    expect(csv[0]).toMatch(/cf_line_id|ไลน์ไอดี/);
    expect(csv[1]).toContain('@thaipack-e2e');
    expect(errors).toEqual([]);
  });
});
