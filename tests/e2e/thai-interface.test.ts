import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN_PASSWORD, apiClient, apiSignIn, browserSession, closeSession, DEMO_PASSWORD, dismissToasts, openInApp, shot, signInInBrowser, socketReady, watchErrors, type BrowserSession, type E2eServer } from './e2e-support.ts';

/**
 * Issue 12 in headless Chromium, in Thai: messages in Thai, Buddhist-era dates,
 * pickers that know their context, settings on a fresh start, the phone layout
 * and the customer portal's own path.
 */
describe('a Thai-first interface', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const url = (path: string) => s.url(path);

  async function pickLink(input: Locator, option: string) {
    await input.click();
    await input.fill(option);
    await page.getByRole('option', { name: option, exact: true }).click();
  }

  beforeAll(async () => {
    s = await browserSession({ context: { viewport: { width: 1366, height: 860 }, timezoneId: 'Europe/London' } });
    ({ server, browser, page, errors } = s);
  }, 240_000);

  afterAll(() => closeSession(s));

  it('home is a dashboard of what the user may see', async () => {
    // the admin's page is signed in and the app loaded: screens open in it as a link would (no reload each)
    await openInApp(page, '/');
    await page.getByTestId('home-dashboard').waitFor();
    await expect.poll(() => page.locator('.bo-count-value').filter({ hasText: /^\d/ }).count(), { timeout: 15_000 }).toBeGreaterThan(10);
    await shot(page, 'th-01-home-dashboard', true);
  }, 60_000);

  it('the menu shows the current item, searches Thai and English, and closing it widens the content', async () => {
    await openInApp(page, '/your_company_type');
    await page.locator('[data-testid=entity-list]').waitFor();
    const menu = page.locator('.bo-sidemenu');
    const active = menu.locator('a.active');
    await active.waitFor();
    const [m, a] = [(await menu.boundingBox())!, (await active.boundingBox())!];
    expect(a.y).toBeGreaterThanOrEqual(m.y);
    expect(a.y + a.height).toBeLessThanOrEqual(m.y + m.height);
    const search = menu.getByRole('searchbox', { name: 'ค้นหาเมนู' });
    await search.fill('machinery');
    await expect.poll(() => menu.locator('a').allTextContents()).toEqual(['เครื่องจักร']);
    await search.fill('ผู้ติดต่อ');
    await expect.poll(() => menu.locator('a').allTextContents()).toEqual(['ผู้ติดต่อ']);
    await search.fill('');
    const before = (await page.locator('.bo-page').first().boundingBox())!.width;
    await page.getByRole('button', { name: 'เมนู' }).click();
    await expect.poll(async () => (await page.locator('.bo-page').first().boundingBox())!.width).toBeGreaterThan(before + 200);
    const main = (await page.locator('main.bo-main').boundingBox())!;
    expect(main.x).toBeLessThan(1);
    await shot(page, 'th-11-menu-closed');
    await page.getByRole('button', { name: 'เมนู' }).click();
  }, 60_000);

  it('a required-field message and a server conflict read in Thai', async () => {
    await openInApp(page, '/causes_of_waste/create');
    await page.locator('#field-code').waitFor();
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await page.locator('#field-code-error').waitFor();
    // an empty required code is "required", not "not in the expected format", and in Thai
    expect(await page.locator('#field-code-error').textContent()).toBe('กรุณากรอกข้อมูลช่องนี้');
    await page.locator('#field-code').fill('STARTUP');
    await page.locator('#field-name_th').fill('ซ้ำกับของเดิม');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    // the field named with the server's Thai message and what to do (issue 48 §2); the earlier "check the form"
    // error is replaced, not stacked
    await page.locator('.p-toast-message-error', { hasText: /ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว\. แก้ไขช่องที่ทำเครื่องหมายสีแดง/ }).waitFor();
    await expect.poll(() => page.locator('.p-toast-message-error').count(), { timeout: 1500, interval: 100 }).toBe(1);
    expect(await page.locator('#field-code-error').textContent()).toBe('ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว');
    await shot(page, 'th-02-thai-messages');
    // a successful save takes the red error away
    await page.locator('#field-code').fill('E2E-WASTE');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await page.locator('.p-toast-message-success').first().waitFor();
    // (well within the 3 s an error toast would last on its own)
    await expect.poll(() => page.locator('.p-toast-message-error').count(), { timeout: 1500, interval: 100 }).toBe(0);
    await dismissToasts(page);
  }, 60_000);

  it('settings open on a fresh start, from the menu and the gear icon', async () => {
    await openInApp(page, '/');
    await page.locator('header.bo-header').getByRole('button', { name: 'ตั้งค่า' }).click();
    await page.waitForURL('**/setting_site');
    await page.locator('form[data-entity=setting_site]').waitFor();
    expect(await page.getByTestId('not-found').count()).toBe(0);
    await shot(page, 'th-03-settings');
  }, 60_000);

  it('a setting saved on one screen applies at once on another open screen, without a reload', async () => {
    const other = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    try {
      const watcher = await other.newPage();
      await signInInBrowser(watcher, server.baseUrl, 'admin', ADMIN_PASSWORD);
      const ready = socketReady(watcher);
      await watcher.goto(url('/'));
      const bell = watcher.getByTestId('notification-button');
      await bell.waitFor();
      await ready;
      await openInApp(page, '/setting_site');
      const hide = page.locator('[data-field=is_hide_notification] input[type=checkbox]');
      await hide.waitFor({ state: 'attached' });
      expect(await hide.isChecked()).toBe(false);
      await page.locator('[data-field=is_hide_notification] .p-checkbox').click();
      await page.getByRole('button', { name: 'บันทึก' }).click();
      await page.locator('.p-toast-message-success').first().waitFor();
      await expect.poll(() => bell.count(), { interval: 100 }).toBe(0);
      // and back
      await page.locator('[data-field=is_hide_notification] .p-checkbox').click();
      await page.getByRole('button', { name: 'บันทึก' }).click();
      await expect.poll(() => watcher.getByTestId('notification-button').count(), { interval: 100 }).toBe(1);
      await dismissToasts(page);
    } finally {
      await other.close();
    }
  }, 90_000);

  it("a setting saved while a screen's socket is still connecting reaches that screen too", async () => {
    const api = apiClient(server.baseUrl, await apiSignIn(server.baseUrl, 'admin', ADMIN_PASSWORD));
    const other = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    try {
      const late = await other.newPage();
      await signInInBrowser(late, server.baseUrl, 'admin', ADMIN_PASSWORD);
      // what the page sends over its socket (the CONNECT with its token) is held until after the save,
      // so the server takes the socket only then: only the stamp announced on connect can tell the page
      let held: (string | Buffer)[] | null = [];
      let upstream: { send(m: string | Buffer): void } | null = null;
      await late.routeWebSocket(/\/socket\.io\//, (ws) => {
        const server = ws.connectToServer();
        upstream = server;
        ws.onMessage((m) => { if (held) held.push(m); else server.send(m); });
      });
      await late.goto(url('/'));
      const bell = late.getByTestId('notification-button');
      await bell.waitFor();
      await expect.poll(() => held!.length).toBeGreaterThan(0);
      const saved = await api('PATCH', '/api/setting_site/1', { is_hide_notification: true });
      expect(saved.success, JSON.stringify(saved)).toBe(true);
      const queued = held!;
      held = null;
      for (const m of queued) upstream!.send(m);
      await expect.poll(() => bell.count()).toBe(0);
    } finally {
      await other.close();
      const back = await api('PATCH', '/api/setting_site/1', { is_hide_notification: false });
      expect(back.success, JSON.stringify(back)).toBe(true);
    }
  }, 60_000);

  it('a date field shows a Buddhist-era year, in the input and in the calendar', async () => {
    await openInApp(page, '/prospect/create');
    const date = page.locator('#field-expected_close_date');
    await date.waitFor();
    await date.fill('18/11/2569');
    await date.press('Tab');
    await expect.poll(() => date.inputValue()).toBe('18 พ.ย. 2569');
    await page.locator('[data-field=expected_close_date] .p-datepicker-trigger').click();
    const year = page.locator('.p-datepicker .bo-year-select');
    await year.waitFor();
    expect(await year.locator('option:checked').textContent()).toBe('2569');
    expect(await page.locator('.p-datepicker .p-datepicker-month').first().textContent()).toContain('พฤศจิกายน');
    await shot(page, 'th-04-date-buddhist-era');
    await page.keyboard.press('Escape');
  }, 60_000);

  it('the contact picker lists only the chosen company\'s contacts', async () => {
    await page.goto(url('/prospect/create'));
    await page.locator('#field-customer_id').waitFor();
    await pickLink(page.locator('#field-customer_id'), 'บริษัท สยามฟู้ดแพ็ค จำกัด');
    await page.locator('#field-contact_id').click();
    const options = page.getByRole('listbox').getByRole('option');
    await expect.poll(async () => (await options.allTextContents()).sort()).toEqual(['ประเสริฐ วงศ์ไทย', 'ศศิธร รักงาน']);
    await shot(page, 'th-05-contact-picker');
    await options.first().click();
    // another company: the earlier contact does not belong to it and is cleared
    await pickLink(page.locator('#field-customer_id'), 'บริษัท กรีนเฟรช ฟาร์ม จำกัด');
    await expect.poll(() => page.locator('#field-contact_id').inputValue()).toBe('');
    await page.locator('#field-contact_id').click();
    await expect.poll(async () => options.allTextContents()).toEqual(['มาลี สุขใจ']);
  }, 60_000);

  it('at 390 px the header folds into a menu, the logout action is reachable, tables scroll in their card', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'th-TH', isMobile: true, hasTouch: true });
    const p = await phone.newPage();
    const phoneErrors = watchErrors(p);
    await p.goto(url('/signin'));
    await p.getByLabel('ชื่อผู้ใช้').fill('admin');
    await p.getByLabel('รหัสผ่าน').fill(ADMIN_PASSWORD);
    await p.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await p.getByTestId('home-dashboard').waitFor();
    const header = p.locator('header.bo-header');
    expect((await header.boundingBox())!.height).toBeLessThanOrEqual(60); // one line, no wrapping
    await shot(p, 'th-06-phone-home');
    await p.goto(url('/customer'));
    await p.locator('[data-testid=entity-list] tbody tr').first().waitFor();
    const wrap = p.locator('.bo-table-wrap').first();
    const box = (await wrap.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    await shot(p, 'th-07-phone-list');
    await p.getByRole('button', { name: 'เพิ่มเติม' }).click();
    const logout = p.getByRole('button', { name: 'ออกจากระบบ' });
    await logout.waitFor();
    const lb = (await logout.boundingBox())!;
    expect(lb.x).toBeGreaterThanOrEqual(0);
    expect(lb.x + lb.width).toBeLessThanOrEqual(390);
    await shot(p, 'th-08-phone-header-menu');
    await logout.click();
    await p.waitForURL('**/signin');
    expect(phoneErrors).toEqual([]);
    await phone.close();
  }, 90_000);

  it('a customer on another customer\'s portal path is sent to their own; /product says no access', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'th-TH' });
    const p = await ctx.newPage();
    await p.goto(url('/signin/customer/1'));
    await p.getByLabel('ชื่อผู้ใช้').fill('customer1');
    await p.getByLabel('รหัสผ่าน').fill(DEMO_PASSWORD);
    await p.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await p.waitForURL('**/customerpage/1/bill');
    await p.getByTestId('customer-bills').waitFor();
    await p.goto(url('/customerpage/2/bill'));
    await p.waitForURL('**/customerpage/1/bill');
    await p.getByTestId('customer-bills').waitFor();
    expect(new URL(p.url()).pathname).toBe('/customerpage/1/bill');
    await p.goto(url('/customerpage/2/bill/1'));
    await p.waitForURL('**/customerpage/1/bill');
    // a session stored before the customer id was kept learns it from the server
    await p.evaluate(() => localStorage.removeItem('customer_id'));
    await p.goto(url('/customerpage/2/bill'));
    await p.waitForURL('**/customerpage/1/bill');
    await p.getByTestId('customer-bills').waitFor();
    await p.goto(url('/product'));
    await p.getByTestId('no-access').waitFor();
    expect(await p.getByTestId('not-available-yet').count()).toBe(0);
    await shot(p, 'th-09-customer-no-access');
    await ctx.close();
  }, 90_000);

  it('the column picker shows every option; filters use the same font size as the other inputs', async () => {
    await page.goto(url('/prospect'));
    await page.locator('[data-testid=entity-list] tbody tr').first().waitFor();
    // list dates read in the Buddhist era too
    expect(await page.locator('[data-testid=entity-list] tbody').textContent()).toMatch(/25\d\d/);
    await page.getByRole('button', { name: 'ตัวกรอง' }).click();
    const filterInput = page.locator('.bo-filters .p-inputtext').first();
    await filterInput.waitFor();
    const search = page.getByRole('searchbox', { name: 'ค้นหา', exact: true });
    const size = (l: Locator) => l.evaluate((el) => getComputedStyle(el).fontSize);
    expect(await size(filterInput)).toBe(await size(search));
    await page.locator('.bo-columns').click();
    const items = page.locator('.bo-columns-panel .p-multiselect-item');
    await items.first().waitFor();
    const wrapper = page.locator('.bo-columns-panel .p-multiselect-items-wrapper');
    const count = await items.count();
    expect(count).toBeGreaterThanOrEqual(5);
    // the default panel showed four and a half options; now at least eight (or all) show in full, the rest scroll.
    // Measured in one pass inside the page, and polled: the overlay grows in with a transition.
    const wholeOptions = () => wrapper.evaluate((w) => {
      const panel = w.getBoundingClientRect();
      return [...w.querySelectorAll('.p-multiselect-item')].filter((el) => {
        const b = el.getBoundingClientRect();
        return b.top >= panel.top - 1 && b.bottom <= panel.bottom + 1;
      }).length;
    });
    await expect.poll(wholeOptions, { timeout: 5_000 }).toBeGreaterThanOrEqual(Math.min(count, 8));
    await shot(page, 'th-10-columns-and-filters');
    await page.keyboard.press('Escape');
  }, 60_000);

  it('in English the same dates read with Western years', async () => {
    await openInApp(page, '/prospect');
    await page.locator('[data-testid=entity-list] tbody tr').first().waitFor();
    await page.locator('.bo-lang').getByRole('button', { name: 'EN' }).click();
    await expect.poll(async () => page.locator('[data-testid=entity-list] tbody').textContent()).toMatch(/ 20\d\d/);
    expect(await page.locator('[data-testid=entity-list] tbody').textContent()).not.toMatch(/25\d\d/);
    await page.locator('.bo-lang').getByRole('button', { name: 'TH' }).click();
  }, 60_000);

  it('threw no page errors', () => {
    expect(errors).toEqual([]);
  });
});
