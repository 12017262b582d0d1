import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, apiSignIn, ARTIFACTS, browserSession, closeSession, DEMO_PASSWORD, signInInBrowser, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

type Row = Record<string, any>;

/**
 * The return panel of a sale's form (web/src/pages/pos/SaleReturnPanel.tsx): a supervisor returns one unit of one
 * line of a paid demo sale by keyboard, confirms the amount, and the server's answer shows; the line, the stock and
 * the refund are checked through the API. The demo cashier (no pos_order_refund) returns only with a supervisor's
 * user name and PIN, which the server judges (a wrong PIN is refused in Thai), and a refusal of the server shows its
 * Thai message. The form's void (คืนเงิน/ยกเลิกบิล) asks the demo cashier for the supervisor in the register's
 * หัวหน้าอนุมัติ dialog when the server answers that a supervisor may approve it.
 */
describe('the POS sale return panel end to end', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  /** The panel alone (a full page has the sticky action bar over it). */
  const shot = async (locator: ReturnType<Page['getByTestId']>, name: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await locator.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  };
  const left = (l: Row) => Number(l.qty) - Number(l.returned_qty ?? 0);

  beforeAll(async () => {
    s = await browserSession();
    ({ server, browser, page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  /** A paid demo sale where one unit of a line can go back without it being the whole sale. */
  async function paidSale(): Promise<{ sale: Row; line: Row }> {
    const list = (await api('GET', `/api/pos_order?limit=100&sort=id&filter=${encodeURIComponent(JSON.stringify({ status: { _eq: 'paid' } }))}`)).data as Row[];
    for (const s of list) {
      const sale = (await api('GET', `/api/pos_order/${s.id}`)).data as Row;
      const line = (sale.items as Row[]).find((l) => left(l) >= 1);
      const total = (sale.items as Row[]).reduce((n, l) => n + left(l), 0);
      if (line && total > 1) return { sale, line };
    }
    throw new Error('the demo has no paid sale with more than one unit left to return');
  }

  const movementsIn = async (saleId: number, lineId: number) => ((await api('GET', `/api/stock_movement?limit=100&filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'pos_order' }, doc_id: { _eq: saleId }, doc_line_id: { _eq: lineId }, direction: { _eq: 'in' } }))}`)).data as Row[]);

  it('returns one unit of a line by keyboard, confirms the amount and shows the refund; the API has the line, the stock and the money', async () => {
    const { sale, line } = await paidSale();
    const inBefore = await movementsIn(sale.id, line.id);
    await page.goto(url(`/pos_order/${sale.id}`));
    const panel = page.getByTestId('sale-return-panel');
    await panel.waitFor();
    const row = panel.locator(`tr[data-line="${line.id}"]`);
    expect(await row.getByTestId('sale-return-returned').innerText()).toBe(String(line.returned_qty ?? 0));
    const box = row.getByTestId('sale-return-qty');
    expect(Number(await box.getAttribute('max'))).toBe(left(line));

    // nothing typed: Enter asks for a quantity and writes nothing
    await box.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.getByRole('alert').innerText()).toContain('กรุณาระบุจำนวนที่คืน');

    await box.fill('1');
    await page.keyboard.press('Tab');
    // the next stop is another line's box or the reason; type the reason where it is and submit with Enter
    await panel.getByTestId('sale-return-reason').fill('ลูกค้าเปลี่ยนใจ');
    await panel.getByTestId('sale-return-reason').press('Enter');
    const confirm = panel.getByTestId('sale-return-confirm');
    await confirm.waitFor();
    await expect.poll(() => confirm.evaluate((el) => el === document.activeElement)).toBe(true);
    const preview = Number((await panel.getByTestId('sale-return-preview-amount').innerText()).replace(/,/g, ''));
    expect(preview).toBeGreaterThan(0);
    await shot(panel, 'pos-return-confirm');
    await page.keyboard.press('Enter');

    const done = panel.getByTestId('sale-return-done');
    await done.waitFor();
    await expect.poll(() => row.getByTestId('sale-return-returned').innerText()).toBe(String(Number(line.returned_qty ?? 0) + 1));
    await shot(panel, 'pos-return-done');

    const after = (await api('GET', `/api/pos_order/${sale.id}`)).data as Row;
    expect(after.status).toBe('paid');
    expect(Number((after.items as Row[]).find((l) => l.id === line.id)!.returned_qty)).toBe(Number(line.returned_qty ?? 0) + 1);
    // the money: the amount the confirmation showed is what the server gave back, recorded as refund lines
    expect(Math.round((Number(after.returned_amount) - Number(sale.returned_amount ?? 0)) * 100)).toBe(Math.round(preview * 100));
    const refunds = (after.refunds as Row[]).slice((sale.refunds as Row[]).length);
    expect(refunds.length).toBeGreaterThan(0);
    expect(Math.round(refunds.reduce((n, r) => n + Number(r.amount), 0) * 100)).toBe(Math.round(preview * 100));
    expect(refunds.every((r) => r.reason === 'ลูกค้าเปลี่ยนใจ')).toBe(true);
    expect(await done.innerText()).toContain(preview.toLocaleString('th-TH', { minimumFractionDigits: 2 }));
    // the stock: one unit back into the sale's inventory
    const inAfter = await movementsIn(sale.id, line.id);
    expect(inAfter.length).toBeGreaterThan(inBefore.length);
    expect(inAfter.slice(inBefore.length).reduce((n, m) => n + Number(m.qty), 0)).toBe(1);
    expect(inAfter.every((m) => m.inventory_id === sale.inventory_id)).toBe(true);
    expect(errors).toEqual([]);
  }, 120_000);

  it('asks the demo cashier for a supervisor\'s PIN, which the server judges, and a refusal by the server shows its Thai message', async () => {
    let { sale, line } = await paidSale();
    const cashierToken = await apiSignIn(server.baseUrl, 'cashier', DEMO_PASSWORD);
    // the administrator is the supervisor: their PIN, set with their password
    expect((await api('PUT', '/api/pos/supervisor-pin', { pin: '482913', password: ADMIN_PASSWORD })).success).toBe(true);
    const cashierPage = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' })).newPage();
    await signInInBrowser(cashierPage, server.baseUrl, 'cashier', DEMO_PASSWORD);
    await cashierPage.goto(url(`/pos_order/${sale.id}`));
    const mine = cashierPage.getByTestId('sale-return-panel');
    await mine.locator(`tr[data-line="${line.id}"]`).getByTestId('sale-return-qty').fill('1');
    await mine.getByTestId('sale-return-submit').click();
    await mine.getByTestId('sale-return-pin').waitFor();
    expect(await mine.getByTestId('sale-return-confirm').isDisabled(), 'no supervisor, no return').toBe(true);
    await mine.getByTestId('sale-return-pin-user').fill('admin');
    await mine.getByTestId('sale-return-pin-code').fill('000000');
    await mine.getByTestId('sale-return-confirm').click();
    await expect.poll(() => mine.getByRole('alert').innerText()).toContain('รหัส PIN');
    expect(Number(((await api('GET', `/api/pos_order/${sale.id}`)).data.items as Row[]).find((l) => l.id === line.id)!.returned_qty)).toBe(Number(line.returned_qty ?? 0));
    await mine.getByTestId('sale-return-submit').click();
    await mine.getByTestId('sale-return-pin-user').fill('admin');
    await mine.getByTestId('sale-return-pin-code').fill('482913');
    await shot(mine, 'pos-return-supervisor-pin');
    await mine.getByTestId('sale-return-confirm').click();
    await mine.getByTestId('sale-return-done').waitFor();
    const approved = (await api('GET', `/api/pos_order/${sale.id}`)).data as Row;
    expect(Number((approved.items as Row[]).find((l) => l.id === line.id)!.returned_qty)).toBe(Number(line.returned_qty ?? 0) + 1);
    await cashierPage.context().close();
    // a sale with something left for the refusal below
    ({ sale, line } = await paidSale());

    // the server's refusal of the cashier, answered to the admin's panel as if the role had lost the key meanwhile
    const refusal = await fetch(url(`/api/pos_order/${sale.id}/return`), { method: 'POST', headers: { authorization: `Bearer ${cashierToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ line_id: line.id, qty: 1 }] }) });
    expect(refusal.status).toBe(403);
    const body = await refusal.text();
    await page.route(`**/api/pos_order/${sale.id}/return`, (r) => r.fulfill({ status: 403, contentType: 'application/json', body }));
    await page.goto(url(`/pos_order/${sale.id}`));
    const panel = page.getByTestId('sale-return-panel');
    await panel.locator(`tr[data-line="${line.id}"]`).getByTestId('sale-return-qty').fill('1');
    await panel.getByTestId('sale-return-submit').click();
    await panel.getByTestId('sale-return-confirm').click();
    await expect.poll(() => panel.getByRole('alert').innerText()).toContain('คุณไม่มีสิทธิ์ทำรายการนี้');
    await page.unroute(`**/api/pos_order/${sale.id}/return`);
    const unchanged = (await api('GET', `/api/pos_order/${sale.id}`)).data as Row;
    expect((unchanged.items as Row[]).find((l) => l.id === line.id)!.returned_qty).toBe(line.returned_qty);
    expect(errors).toEqual([]);
  }, 120_000);

  it('voids a sale for the demo cashier on the sale form with the supervisor\'s PIN in the หัวหน้าอนุมัติ dialog, which the server judges', async () => {
    const { sale } = await paidSale();
    expect((await api('PUT', '/api/pos/supervisor-pin', { pin: '482913', password: ADMIN_PASSWORD })).success).toBe(true);
    const cashierPage = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' })).newPage();
    await signInInBrowser(cashierPage, server.baseUrl, 'cashier', DEMO_PASSWORD);
    await cashierPage.goto(url(`/pos_order/${sale.id}`));
    await cashierPage.getByTestId('sale-return-panel').waitFor();
    await cashierPage.getByRole('button', { name: 'คืนเงิน/ยกเลิกบิล' }).first().click();
    // the form's own confirmation first, which asks for the reason (issue 52 §3), then the server's "a supervisor may
    // approve": the dialog, nothing voided
    const reason = cashierPage.getByRole('dialog').getByLabel('เหตุผลการคืนเงิน/ยกเลิก');
    await expect.poll(() => reason.evaluate((el) => el === document.activeElement)).toBe(true);
    await reason.fill('ลูกค้ายกเลิกการซื้อ');
    await cashierPage.getByRole('dialog').getByRole('button', { name: 'คืนเงิน/ยกเลิกบิล' }).click();
    const pin = cashierPage.getByTestId('pos-pin-panel');
    await pin.waitFor();
    expect(await pin.innerText()).toContain('หัวหน้าอนุมัติ');
    expect(await pin.innerText()).toContain('คืนเงิน/ยกเลิกบิล');
    expect(await cashierPage.getByTestId('pos-pin-ok').isDisabled(), 'no supervisor, no approval').toBe(true);
    expect((await api('GET', `/api/pos_order/${sale.id}`)).data.status).toBe('paid');
    // a wrong PIN: the server's Thai reason in the dialog, the sale still paid
    await cashierPage.getByTestId('pos-pin-user').fill('admin');
    await cashierPage.getByTestId('pos-pin-code').fill('000000');
    await cashierPage.getByTestId('pos-pin-ok').click();
    await expect.poll(() => cashierPage.getByTestId('pos-pin-error').innerText()).toContain('รหัส PIN');
    expect((await api('GET', `/api/pos_order/${sale.id}`)).data.status).toBe('paid');
    // the supervisor's PIN (Enter in the box): voided, the dialog gone, the form shows the new state
    await cashierPage.getByTestId('pos-pin-code').fill('482913');
    await shot(pin, 'pos-void-supervisor-pin');
    await cashierPage.getByTestId('pos-pin-code').press('Enter');
    await expect.poll(() => pin.count()).toBe(0);
    const voided = (await api('GET', `/api/pos_order/${sale.id}`)).data;
    expect(voided.status).toBe('refunded');
    // the reason typed in the confirmation went with the approved action
    expect(voided.refund_reason).toBe('ลูกค้ายกเลิกการซื้อ');
    await expect.poll(() => cashierPage.getByTestId('sale-return-panel').count()).toBe(0);
    await cashierPage.context().close();
  }, 120_000);
});
