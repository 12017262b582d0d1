import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { browserSession, closeSession, DEMO_PASSWORD, shot, signInInBrowser, watchErrors, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

/**
 * A dashboard from a report file in the browser (issue 32): its chart draws on
 * a canvas beside its table, a parameter change makes the table follow, the
 * parameter is remembered across a reload (the per-path table-view memory), and
 * the Excel export downloads.
 */
describe('report screens end to end', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Bangkok' }).format(new Date());

  beforeAll(async () => {
    s = await browserSession({ context: { acceptDownloads: true } });
    ({ server, browser, page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('draws the chart, follows a parameter, remembers it after a reload, and exports Excel', async () => {
    const inventories = (await api('GET', '/api/inventory?limit=2&sort=id')).data as { id: number; code: string }[];
    const product = (await api('GET', '/api/product?limit=1&sort=id')).data[0].id as number;
    // a receipt dated today in each of two inventories: the dashboard's default range (this month) holds both
    for (const [i, inv] of inventories.entries()) {
      const gr = await api('POST', '/api/goods_receipt', { inventory_id: inv.id, doc_date: today, items: [{ product_id: product, qty: 5 + i, price: 10 }] });
      expect(gr.success, JSON.stringify(gr)).toBe(true);
      expect((await api('POST', `/api/goods_receipt/${gr.data.id}/actions/approve`)).success).toBe(true);
    }
    const all = await api('GET', '/api/report/transaction_dashboard?limit=1000');
    const mine = await api('GET', `/api/report/transaction_dashboard?limit=1000&selectedInventory=${inventories[1]!.id}`);
    expect(all.meta.total_count).toBeGreaterThan(0);
    expect(mine.data.totals.in_count).toBeLessThan(all.data.totals.in_count);

    await page.goto(url('/transaction_dashboard'));
    const screen = page.getByTestId('report-screen');
    await screen.waitFor();
    const canvas = page.getByTestId('report-chart').locator('canvas');
    await canvas.waitFor();
    // the chart drew something: the canvas has a size and pixels that are not blank
    await expect.poll(() => canvas.evaluate((c: HTMLCanvasElement) => {
      const ctx = c.getContext('2d');
      if (!ctx || c.width === 0 || c.height === 0) return false;
      return ctx.getImageData(0, 0, c.width, c.height).data.some((x) => x !== 0);
    }), { timeout: 15_000 }).toBe(true);
    const totals = page.getByTestId('report-totals');
    const inCount = () => totals.locator('td[data-col="in_count"]').innerText();
    await expect.poll(inCount).toBe(String(all.data.totals.in_count));
    await shot(page, '60-transaction-dashboard');

    await page.getByTestId('report-param-selectedInventory').selectOption(String(inventories[1]!.id));
    await expect.poll(inCount).toBe(String(mine.data.totals.in_count));

    await page.reload();
    await page.getByTestId('report-screen').waitFor();
    await expect.poll(() => page.getByTestId('report-param-selectedInventory').inputValue()).toBe(String(inventories[1]!.id));
    await expect.poll(inCount).toBe(String(mine.data.totals.in_count));

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export-xlsx').click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    const path = await download.path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path!).subarray(0, 2).toString()).toBe('PK');

    // a status column reads in Thai (it showed "closed"/"open"), and a shift number is not broken at its hyphens
    await page.goto(url('/pos_shift_sale_summary'));
    const shifts = page.getByTestId('report-table');
    await expect.poll(() => shifts.locator('tbody').innerText(), { timeout: 15_000 }).toContain('ปิดกะแล้ว');
    expect(await shifts.locator('tbody td[data-col="status"]').allInnerTexts()).not.toContain('closed');
    const shiftNo = shifts.locator('tbody td[data-col="shift_no"]').first();
    expect(await shiftNo.evaluate((td) => getComputedStyle(td).whiteSpace)).toBe('nowrap');
    expect(errors).toEqual([]);
  }, 120_000);

  it('a warehouse clerk finds the stock balance reports of his own inventory, and no tax or sales reports', async () => {
    // the clerk's menu had one report (the movement) and no stock balance at all; his rows stay those of WH-BN
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' });
    try {
      const clerk = await context.newPage();
      const clerkErrors = watchErrors(clerk);
      await signInInBrowser(clerk, server.baseUrl, 'warehouse', DEMO_PASSWORD);
      const menu = clerk.locator('.bo-sidemenu');
      expect(await menu.innerText()).not.toContain('รายงานภาษี');
      await clerk.goto(url('/stock_balance_all'));
      const table = clerk.getByTestId('report-table');
      await expect.poll(() => table.locator('tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(0);
      const codes = await table.locator('tbody td[data-col="inventory_code"]').allInnerTexts();
      expect(new Set(codes)).toEqual(new Set(['WH-BN']));
      // booked and available stock are on the screen (issue 44 §10)
      expect(await table.locator('tbody td[data-col="qty_booked"]').count()).toBe(codes.length);
      expect(await table.locator('tbody td[data-col="qty_available"]').count()).toBe(codes.length);
      expect(await table.locator('thead').innerText()).toContain('จองแล้ว');
      await shot(clerk, 'warehouse-stock-balance-all');
      await clerk.goto(url('/sales_tax_report'));
      await clerk.getByText('ไม่พบหน้าที่ต้องการ').waitFor();
      expect(await clerk.getByTestId('report-screen').count()).toBe(0);
      expect(clerkErrors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
