/**
 * Issue 50: a posted payment voucher with tax withheld shows "ออกหนังสือรับรอง 50 ทวิ" in its certificates list;
 * the certificate's form opens with the voucher chosen and fills the supplier, the payee's tax id, the date and
 * the amount paid from it. Screenshot: artifacts/payment-voucher-50-tawi.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSession, closeSession, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

describe('the 50 ทวิ button of a payment voucher', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let page: Page;
  let errors: string[];
  let api: ApiCall;

  beforeAll(async () => {
    s = await browserSession();
    ({ server, page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('opens the certificate filled from the voucher, only on a posted voucher with tax withheld', async () => {
    const byCode = async (entity: string, code: string) => (await api('GET', `/api/${entity}?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`)).data[0].id as number;
    const company = await byCode('your_company', 'TPT');
    const supplier = await byCode('supplier', 'S001');
    const pi = await api('POST', '/api/purchase_invoice', {
      supplier_id: supplier, your_company_id: company, vat_type: 'exclude', wht_rate: 3, supplier_invoice_no: 'E2E-PV-50', supplier_invoice_date: '2026-11-20',
      items: [{ description: 'ค่าบริการซ่อมเครื่องจักร', qty: 1, price: 1000 }],
    });
    expect(pi.success, JSON.stringify(pi)).toBe(true);
    expect((await api('POST', `/api/purchase_invoice/${pi.data.id}/actions/approve`, {})).success).toBe(true);
    const v = await api('POST', '/api/payment_voucher/from/purchase_invoice', { ids: [pi.data.id], values: { payment_method: 'cash', wht_amount: 30 } });
    expect(v.success, JSON.stringify(v)).toBe(true);
    const add = page.locator('[data-related-add="withholding_certificates"]');
    // a draft voucher offers no certificate yet
    await page.goto(new URL(`/payment_voucher/${v.data.id}`, server.baseUrl).toString());
    await page.locator('[data-related="withholding_certificates"]').waitFor();
    expect(await add.count()).toBe(0);
    expect((await api('POST', `/api/payment_voucher/${v.data.id}/actions/post`, {})).success).toBe(true);
    await page.reload();
    await add.waitFor();
    expect(await add.innerText()).toContain('ออกหนังสือรับรอง 50 ทวิ');
    await add.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // filled from the voucher: the amount paid before VAT, and the supplier's name
    mkdirSync(ARTIFACTS, { recursive: true });
    const amount = dialog.locator('#amount_paid, [id$="amount_paid"] input, input[id$="amount_paid"]').first();
    await expect.poll(() => amount.inputValue().catch(() => ''), { timeout: 10_000 }).toMatch(/^1,?000(\.00)?$/);
    const s1 = (await api('GET', `/api/supplier/${supplier}`)).data;
    const inputs = () => dialog.locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    await expect.poll(inputs, { timeout: 10_000 }).toContain(s1.name_th);
    // and the supplier, filled in turn, gives the payee's tax id
    if (s1.tax_id) await expect.poll(() => dialog.locator('input[id$="payee_tax_id"]').first().inputValue().catch(() => ''), { timeout: 10_000 }).toContain(String(s1.tax_id).slice(-4));
    await page.screenshot({ path: join(ARTIFACTS, 'payment-voucher-50-tawi.png'), fullPage: true });
    expect(errors).toEqual([]);
  }, 120_000);
});
