import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * Issue 32 in the browser: the purchase invoices the demo posted are listed under purchasing and open on the
 * generic form with the supplier's invoice number; the purchase tax report of their month lists them; the
 * ภ.ง.ด.53 attachment's RD Prep button downloads the text file.
 */
describe('purchase tax end to end', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);

  beforeAll(async () => {
    s = await browserSession({ context: { acceptDownloads: true } });
    ({ page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('lists and opens a purchase invoice, reports it in its tax month, and downloads the RD Prep file', async () => {
    const list = await api('GET', '/api/purchase_invoice?sort=doc_no');
    const invoice = (list.data as { id: number; doc_no: string; supplier_invoice_no: string; status: string }[]).find((r) => r.supplier_invoice_no === 'IV-S001-2611-0458')!;
    // posted, and the demo pays 5,000.00 of it by cheque (seed/demo/416-payment_voucher.json)
    expect(invoice.status).toBe('partially_paid');

    await page.goto(url('/purchase_invoice'));
    await page.getByText(invoice.doc_no).first().waitFor();
    await page.goto(url(`/purchase_invoice/${invoice.id}`));
    await expect.poll(async () => (await page.locator('input').evaluateAll((xs) => xs.map((x) => (x as HTMLInputElement).value))).includes('IV-S001-2611-0458'), { timeout: 15_000 }).toBe(true);
    await shot(page, '61-purchase-invoice');

    // a goods receipt from production has no supplier: the create-from screen said only "some fields are invalid";
    // it now names the supplier and says it comes from the source document
    const receipts = (await api('GET', '/api/goods_receipt?limit=200')).data as { doc_no: string; supplier_id: number | null; status: string }[];
    const noSupplier = receipts.find((r) => r.supplier_id === null && r.status === 'approved');
    expect(noSupplier, 'the demo has an approved receipt from production').toBeDefined();
    await page.goto(url('/purchase_invoice/goods_receipt'));
    await page.getByRole('checkbox', { name: noSupplier!.doc_no }).check();
    await page.getByTestId('create-from-lines').waitFor();
    await page.getByTestId('create-from-submit').click();
    await expect.poll(() => page.getByTestId('create-from').getByRole('alert').innerText(), { timeout: 15_000 }).toContain('ผู้ขายมาจากเอกสารต้นทาง');
    await shot(page, '61b-purchase-invoice-from-receipt-without-supplier');

    await page.goto(url('/purchase_tax_report'));
    await page.getByTestId('report-screen').waitFor();
    // the tax month reads in Thai with its Buddhist-era year (the browser's month input showed "November 2026")
    await page.getByTestId('report-param-month-year').selectOption('2026');
    await page.getByTestId('report-param-month-month').selectOption('11');
    expect(await page.getByTestId('report-param-month-month').locator('option:checked').innerText()).toBe('พฤศจิกายน');
    expect(await page.getByTestId('report-param-month-year').locator('option:checked').innerText()).toBe('2569');
    await expect.poll(() => page.getByTestId('report-table').innerText(), { timeout: 15_000 }).toContain('IV-S001-2611-0458');
    // the long Thai headers wrap: every column, the VAT and the total too, is on screen without a sideways scroll
    expect(await page.getByTestId('report-table').evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth)).toBe(true);

    // the withholding summary names the form as the Revenue Department does (ภ.ง.ด.53), not by its code
    await page.goto(url('/wht_summary'));
    await page.getByTestId('report-param-month-year').selectOption('2026');
    await page.getByTestId('report-param-month-month').selectOption('11');
    await expect.poll(() => page.getByTestId('report-table').innerText(), { timeout: 15_000 }).toContain('ภ.ง.ด.53');
    expect(await page.getByTestId('report-table').innerText()).not.toContain('pnd53');

    await page.goto(url('/wht_attachment'));
    await page.getByTestId('report-screen').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-text-rd_prep').click()]);
    expect(download.suggestedFilename()).toMatch(/^PND53_\d{4}-\d{2}\.txt$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text === '' || /^1\|\d{13}\|/.test(text)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);
});
