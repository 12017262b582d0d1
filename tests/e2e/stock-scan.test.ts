import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChooser, Page } from 'playwright-core';
import { browserSession, closeSession, shot, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * Receiving a purchase order by scanning pack barcodes in the browser: a
 * keyboard-wedge scanner is keystrokes and Enter into the focused box; each
 * scan is counted on its line, the extra pack is shown as an over-scan, the
 * receipt posts and the stock goes up (also on the incoming screen), and the
 * packs' labels download as a PDF with their codes.
 */
describe('scanning a goods receipt end to end', () => {
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

  /** A keyboard-wedge scanner: the code typed fast into whatever has focus, then Enter. */
  async function wedge(code: string): Promise<void> {
    await page.keyboard.type(code, { delay: 5 });
    await page.keyboard.press('Enter');
  }

  it('scans two packs into a receipt, shows the third as an over-scan, posts it and prints the labels', async () => {
    const first = async (entity: string) => (await api('GET', `/api/${entity}?limit=1`)).data[0].id as number;
    const settings = (await api('GET', '/api/setting_site?sort=id')).data[0];
    expect((await api('PATCH', `/api/setting_site/${settings.id}`, { is_enable_product_pack: true })).success).toBe(true);
    const product = await first('product');
    const inventory = await first('inventory');
    const balance = async () => ((await api('GET', `/api/stock/balance?product_id=${product}&inventory_id=${inventory}`)).data as { qty_on_hand: number }[]).reduce((s, r) => s + r.qty_on_hand, 0);
    const before = await balance();
    const po = await api('POST', '/api/purchase_order', { supplier_id: await first('supplier'), your_company_id: await first('your_company'), items: [{ product_id: product, qty: 10, price: 20 }] });
    expect(po.success, JSON.stringify(po)).toBe(true);
    expect((await api('POST', `/api/purchase_order/${po.data.id}/actions/approve`)).success).toBe(true);
    // the receipt is made on the create-from screen: the supplier, its open order, everything still to receive
    await page.goto(url('/goods_receipt/purchase_order'));
    await page.getByTestId('create-from-customer').selectOption(String(po.data.supplier_id));
    const poNo = (await api('GET', `/api/purchase_order/${po.data.id}`)).data.doc_no as string;
    await page.getByRole('checkbox', { name: poNo }).check();
    await expect.poll(async () => page.getByTestId('create-from-lines').getByTestId('remaining').allInnerTexts()).toEqual([expect.stringMatching(/^10(\.0+)?$/)]);
    await page.getByTestId('create-from-submit').click();
    await page.waitForURL((u) => /\/goods_receipt\/\d+$/.test(u.pathname));
    const gr = await api('GET', `/api/goods_receipt/${Number(page.url().split('/').pop())}`);
    expect(gr.data).toMatchObject({ status: 'draft', supplier_id: po.data.supplier_id });
    expect(gr.data.items).toEqual([expect.objectContaining({ source_entity: 'purchase_order', product_id: product, qty: 10 })]);
    expect((await api('PATCH', `/api/goods_receipt/${gr.data.id}`, { inventory_id: inventory })).success).toBe(true);
    const packs = await api('POST', '/api/barcodes/generate', { product_id: product, pack_qty: 5, count: 3, lot_no: 'E2E' });
    expect(packs.success, JSON.stringify(packs)).toBe(true);
    const codes = (packs.data as { code: string }[]).map((p) => p.code);

    await page.goto(url(`/goods_receipt/${gr.data.id}`));
    const input = page.getByTestId('scan-input');
    await input.waitFor();
    await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
    const results = page.getByTestId('scan-results').locator('li');
    // two packs scanned back to back: the second is typed while the first is still being counted,
    // and the box (enabled and focused throughout) loses none of it
    await wedge(codes[0]!);
    await wedge(codes[1]!);
    await expect.poll(() => results.count()).toBe(2);
    expect(await results.evaluateAll((items) => items.map((li) => li.getAttribute('data-kind')))).toEqual(['counted', 'counted']);
    await expect.poll(() => page.getByTestId('scan-lines').locator('tr[data-state=done]').count()).toBe(1);
    await wedge(codes[2]!);
    await expect.poll(() => results.count()).toBe(3);
    expect(await results.first().getAttribute('data-kind')).toBe('SCAN_OVER');
    await page.getByTestId('scan-over-list').locator('li', { hasText: codes[2]! }).waitFor();
    await shot(page, '60-goods-receipt-scanned');
    // on a phone, in English too (longer headings), the scanned lines' table scrolls in its own box: the page stays as wide as the phone
    const desktop = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 844 });
    for (const lang of ['en', 'th']) {
      await page.evaluate((l) => localStorage.setItem('language', l), lang);
      await page.reload();
      await page.getByTestId('scan-lines').locator('tbody tr').first().waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${lang}: the page is ${overflow} px wider than the phone`).toBeLessThanOrEqual(0);
      if (lang === 'en') await shot(page, '60-goods-receipt-scanned-phone-en');
    }
    await page.setViewportSize(desktop);
    await input.waitFor();

    await page.getByRole('button', { name: 'อนุมัติ' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'อนุมัติ' }).click();
    await expect.poll(async () => (await api('GET', `/api/goods_receipt/${gr.data.id}`)).data.status).toBe('approved');
    expect(await balance()).toBe(before + 10);
    const doc = (await api('GET', `/api/goods_receipt/${gr.data.id}`)).data;

    // the day's incoming screen shows the receipt
    await page.goto(url('/incoming'));
    await page.getByTestId('movements').locator('a', { hasText: doc.doc_no }).waitFor();
    await shot(page, '61-incoming');

    // the packs scanned into the receipt print as labels
    await page.goto(url(`/goods_receipt/${gr.data.id}`));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('print-labels').click()]);
    const file = await download.path();
    const pdf = readFileSync(file!);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    if (existsSync('/usr/bin/pdftotext')) {
      const text = execFileSync('/usr/bin/pdftotext', [file!, '-']).toString();
      expect(text).toContain(codes[0]);
      expect(text).toContain(codes[1]);
      expect(text).not.toContain(codes[2]);
    }
    expect(errors).toEqual([]);
  }, 120_000);

  it('imports products from a CSV on /product/import: preview with row errors, then valid rows with a progress bar', async () => {
    await page.goto(url('/product/import'));
    // a Thai button, not the browser's "Choose File", which the keyboard reaches and opens (issue 52 §4)
    const picker = page.locator('label.bo-file-pick', { hasText: 'เลือกไฟล์' });
    await picker.waitFor();
    expect(await page.locator('body').innerText()).not.toContain('Choose File');
    expect(await page.getByTestId('import-file-name').innerText()).toBe('ยังไม่ได้เลือกไฟล์');
    // the screen settles first (its texts and the entity's meta arrive after the first paint), then Tab's target
    await page.waitForLoadState('networkidle');
    const input = page.getByLabel('เลือกไฟล์ (ไฟล์ CSV หรือ XLSX)');
    // Space on the focused input opens the chooser; a late render of the screen (its texts arriving) may take the
    // focus away between the check and the key, so the key is tried again, each time on the input focused
    let chooser: FileChooser | null = null;
    for (let attempt = 0; attempt < 4 && !chooser; attempt++) {
      await input.focus();
      await expect.poll(() => input.evaluate((el) => el === document.activeElement)).toBe(true);
      [chooser] = await Promise.all([page.waitForEvent('filechooser', { timeout: 5000 }).catch(() => null), page.keyboard.press('Space')]);
    }
    if (!chooser) throw new Error('Space on the focused file input opened no file chooser in 4 tries');
    expect(chooser.isMultiple()).toBe(false);
    const csv = ['code,name_th,product_class,unit,price,vat_type', 'IMP-E2E-1,ฟิล์มทดสอบ,class_a,ม้วน,10.50,vat7', 'IMP-E2E-2,,class_a,ม้วน,abc,vat7', 'IMP-E2E-3,เทปทดสอบ,class_b,ม้วน,3,zero'].join('\n');
    await chooser.setFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => page.getByTestId('import-file-name').innerText()).toBe('products.csv');
    await page.getByTestId('import-mode-valid_rows').check();
    await page.getByTestId('import-preview').click();
    await page.getByTestId('import-summary').waitFor();
    const errorRows = page.getByTestId('import-errors').locator('tbody tr');
    await expect.poll(() => errorRows.count()).toBe(2);
    expect(await errorRows.first().locator('td').first().textContent()).toBe('3');
    await shot(page, '62-product-import-preview');
    await page.getByTestId('import-run').click();
    await page.locator('[data-testid=import-job][data-state=done]').waitFor();
    await page.locator('.p-progressbar').waitFor();
    const imported = (await api('GET', `/api/product?filter=${encodeURIComponent(JSON.stringify({ code: { _starts_with: 'IMP-E2E-' } }))}`)).data as { code: string }[];
    expect(imported.map((p) => p.code).sort()).toEqual(['IMP-E2E-1', 'IMP-E2E-3']);
    await shot(page, '63-product-import-done');
    expect(errors).toEqual([]);
  }, 60_000);
});
