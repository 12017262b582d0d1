import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, apiClient, apiSignIn, browserSession, closeSession, shot, signInInBrowser, watchErrors, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

/**
 * Issue 38 §2, §6, §9 and issue 35 §2 in Thai: the product dropdown of a line is fully visible,
 * Enter moves between fields (and adds a line after a line's last field) while only Ctrl+S saves,
 * a form opens on its first empty field behind a skip link, a view-only user sees no write
 * buttons, and on a phone each line is a card (no sideways scrolling).
 */
describe('document forms by keyboard', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  const active = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.id ?? '');

  beforeAll(async () => {
    s = await browserSession({ context: { viewport: { width: 1366, height: 800 } } });
    ({ server, browser, page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('a skip link comes first, and the form opens on its first empty field', async () => {
    await page.goto(url('/quotation/create'));
    await page.locator('form[data-entity=quotation]').waitFor();
    // the first field that is still empty (the number is given on saving, the date and company have defaults)
    await expect.poll(active).toMatch(/^field-/);
    const first = await page.evaluate(() => {
      const f = [...document.querySelectorAll<HTMLInputElement>('form[data-entity=quotation] input:not([disabled])')].filter((e) => e.tabIndex >= 0 && e.getClientRects().length);
      return { empty: f.find((e) => e.value === '' && !e.closest('.p-dropdown'))?.id, focused: (document.activeElement as HTMLInputElement).value };
    });
    expect(first.focused).toBe('');
    expect(await active()).toBe(first.empty);
    // the first Tab stop of the page is the skip link; it takes the focus to the screen
    const firstStop = await page.evaluate(() => {
      const all = [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')].filter((e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled);
      return all[0]?.textContent;
    });
    expect(firstStop).toBe('ข้ามไปยังเนื้อหา');
    await page.locator('.bo-skip-link').focus();
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#main'))).toBe(true);
  });

  it('Enter moves to the next field and adds a line; only Ctrl+S saves; the product list shows above the table', async () => {
    await page.goto(url('/quotation/create'));
    const form = page.locator('form[data-entity=quotation]');
    await form.waitFor();
    expect(await page.locator('.bo-shortcuts').innerText()).toBe('Enter ไปช่องถัดไป · Ctrl+S บันทึก');
    const posts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'POST' && /\/api\/quotation$/.test(new URL(r.url()).pathname)) posts.push(r.url()); });
    // the customer: typed and chosen with Enter, then Enter again goes on
    const customer = (await api('GET', '/api/customer?limit=1&sort=code')).data[0];
    await page.locator('#field-customer_id').click();
    await page.keyboard.type(String(customer.code));
    await page.locator('.bo-link-panel li[role=option]').first().waitFor();
    await page.keyboard.press('Enter');
    const before = await active();
    await page.keyboard.press('Enter');
    await expect.poll(active).not.toBe(before);
    expect(posts).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/quotation/create');

    // a line: its product picker's list is on top of everything, inside the window
    await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await expect.poll(active).toBe('items-0-product_id');
    const panel = page.locator('.bo-link-panel');
    await panel.locator('li[role=option]').first().waitFor();
    const box = (await panel.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.height).toBeGreaterThan(100);
    // what is on top at the list's middle is the list itself (no table box clips it)
    expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.bo-link-panel'), [box.x + box.width / 2, box.y + box.height - 10])).toBe(true);
    await shot(page, 'keys-01-product-dropdown');
    // keyboard: down, Enter chooses
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await page.locator('#items-0-product_id').inputValue()).not.toBe('');
    // Enter through the line's fields; on its last field Enter adds a line and goes to its product
    await page.keyboard.press('Enter');
    const lastId = await page.locator('[data-line-row="0"]').evaluate((row) => {
      const f = [...row.querySelectorAll<HTMLElement>('input:not([disabled]), select, textarea')].filter((e) => e.tabIndex >= 0 && !(e as HTMLInputElement).readOnly && e.getClientRects().length);
      return f[f.length - 1]!.id;
    });
    await page.locator(`#${lastId}`).focus();
    await page.keyboard.press('Enter');
    await expect.poll(active).toBe('items-1-product_id');
    expect(await page.locator('[data-line-row]').count()).toBe(2);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'ลบรายการ 2' }).click();
    // a price on line 1, then Ctrl+S: saved, the form reopens as the record, focus still in it
    await page.locator('#items-0-qty').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('3');
    await page.locator('#items-0-price').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('120');
    expect(posts).toEqual([]);
    await page.keyboard.press('Control+s');
    await page.waitForURL((u) => /^\/quotation\/\d+$/.test(u.pathname));
    expect(posts.length).toBe(1);
    await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('form[data-entity=quotation]'))).toBe(true);
    // clear buttons are not Tab stops, and are Thai
    const clear = page.locator('.bo-link-clear').first();
    expect(await clear.getAttribute('tabindex')).toBe('-1');
    expect(await clear.getAttribute('aria-label')).toBe('ล้าง');
    expect(errors).toEqual([]);
  }, 120_000);

  it('a view-only user sees no delete, save or create', async () => {
    const role = await api('POST', '/api/user_role', { name: 'E2E ผู้ดูใบเสนอราคา', role_detail: { '*': { view: true } }, production_report_print_times: 1 });
    expect(role.success, JSON.stringify(role)).toBe(true);
    const user = await api('POST', '/api/user_account', { username: 'e2eviewer', first_name: 'ผู้ดู', role_id: role.data.id, inventory_allow: [], branch_company: [] });
    expect(user.success, JSON.stringify(user)).toBe(true);
    await api('PUT', `/api/user_account/${user.data.id}/password`, { password: 'E2e-viewer-Pass-1' });
    const q = (await api('GET', '/api/quotation?limit=1&sort=-id')).data[0];
    const seen = await apiClient(server.baseUrl, await apiSignIn(server.baseUrl, 'e2eviewer', 'E2e-viewer-Pass-1'))('GET', '/api/quotation?limit=2');
    expect(seen.success, JSON.stringify(seen).slice(0, 400)).toBe(true);
    const viewer = await (await browser.newContext({ viewport: { width: 1366, height: 800 }, locale: 'th-TH' })).newPage();
    const viewerErrors = watchErrors(viewer);
    await signInInBrowser(viewer, server.baseUrl, 'e2eviewer', 'E2e-viewer-Pass-1');
    await viewer.goto(url('/quotation'));
    await viewer.getByTestId('entity-list').locator('tbody tr').first().waitFor();
    expect(await viewer.getByTestId('list-create').count()).toBe(0);
    await viewer.goto(url(`/quotation/${q.id}`));
    await viewer.locator('form[data-entity=quotation]').waitFor();
    await viewer.getByRole('button', { name: 'กลับไปรายการ' }).first().waitFor();
    for (const name of ['ลบ', 'บันทึก', 'อนุมัติ', 'ยกเลิกเอกสาร', 'เพิ่มรายการ']) expect(await viewer.getByRole('button', { name, exact: true }).count(), name).toBe(0);
    expect(await viewer.locator('form[data-entity=quotation] input:not([disabled])').count()).toBe(0);
    await shot(viewer, 'keys-02-view-only');
    expect(viewerErrors).toEqual([]);
    await viewer.context().close();
  }, 120_000);

  it('on a phone each line is a card: no form scrolls sideways', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'th-TH', isMobile: true, hasTouch: true })).newPage();
    await signInInBrowser(phone, server.baseUrl, 'admin', ADMIN_PASSWORD);
    for (const entity of ['quotation', 'goods_receipt', 'delivery_order', 'receipt']) {
      const id = (await api('GET', `/api/${entity}?limit=1&sort=-id`)).data[0].id;
      await phone.goto(url(`/${entity}/${id}`));
      await phone.locator(`form[data-entity=${entity}] [data-line-row]`).first().waitFor();
      // the entry's journal (รายการบัญชี) comes last and after the form: measured once it is there (a delivery order's
      // and a receipt's four columns were 12 and 39 px wider than the phone, seen only when it had arrived)
      const journal = await api('GET', `/api/${entity}/${id}/journal`);
      if (journal.success && (journal.data as { entries: unknown[] }).entries.length > 0) await phone.getByTestId('document-journal').waitFor();
      await expect.poll(() => phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { message: entity }).toBeLessThanOrEqual(0);
      if (entity === 'goods_receipt') await shot(phone, 'keys-03-phone-lines', true);
    }
    // on a desktop the goods receipt's lines do not push the page sideways
    await page.goto(url(`/goods_receipt/${(await api('GET', '/api/goods_receipt?limit=1&sort=-id')).data[0].id}`));
    await page.locator('form[data-entity=goods_receipt] [data-line-row]').first().waitFor();
    const wide = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('body *')].filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).slice(0, 6).map((e) => `${e.tagName}.${e.className}`).join(' | '));
    await shot(page, 'keys-04-goods-receipt-desktop');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), wide).toBeLessThanOrEqual(0);
    await phone.context().close();
  }, 120_000);
});
