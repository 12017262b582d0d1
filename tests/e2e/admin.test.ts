import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { PNG } from '../support/crm-fixtures.ts';
import { ADMIN_PASSWORD, apiClient, apiSignIn, browserSession, closeSession, dismissToasts, openInApp, shot, signInInBrowser, type ApiCall, type BrowserSession, type E2eServer } from './e2e-support.ts';

/**
 * Issue 13 in headless Chromium: the role matrix changes a user's menu, the
 * system log leads to that change, a backup is made and downloaded, the socket
 * test shows a ping time, and a browser without Web Serial is told so.
 */
describe('admin screens end to end', () => {
  let s: BrowserSession;
  let server: E2eServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  let roleId = 0;
  const CLERK_PASSWORD = 'E2e-clerk-Pass-1';
  const url = (path: string) => s.url(path);

  beforeAll(async () => {
    s = await browserSession({
      context: { viewport: { width: 1366, height: 860 }, acceptDownloads: true },
      timeout: 10_000,
      arrange: async (api) => {
        const role = await api('POST', '/api/user_role', { name: 'E2E Clerk', role_detail: { customer: { view: true } }, production_report_print_times: 1 });
        roleId = role.data.id;
        const user = await api('POST', '/api/user_account', { username: 'e2eclerk', first_name: 'Clerk', role_id: roleId, inventory_allow: [], branch_company: [] });
        await api('PUT', `/api/user_account/${user.data.id}/password`, { password: CLERK_PASSWORD });
      },
    });
    ({ server, browser, page, errors, api } = s);
  }, 240_000);

  afterAll(() => closeSession(s));

  it('edits a role in the matrix, and the menu of a user with that role changes', async () => {
    const clerkContext = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    const clerk = await clerkContext.newPage();
    await signInInBrowser(clerk, server.baseUrl, 'e2eclerk', CLERK_PASSWORD);
    await expect(clerk.locator('.bo-sidemenu a[href="/product"]').count()).resolves.toBe(0);

    await page.goto(url(`/user_role/${roleId}`));
    const matrix = page.getByTestId('role-matrix');
    await matrix.waitFor();
    await shot(page, 'admin-01-role-matrix');
    const productView = matrix.locator('tr[data-key="product"] input[type=checkbox]').first();
    await productView.check();
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await page.locator('.p-toast-message').first().waitFor();
    await dismissToasts(page);
    const saved = await api('GET', `/api/user_role/${roleId}`);
    const detail = typeof saved.data.role_detail === 'string' ? JSON.parse(saved.data.role_detail) : saved.data.role_detail;
    expect(detail).toEqual({ customer: { view: true }, product: { view: true } });

    // a role_detail change keeps the clerk signed in; the menu follows on the next load
    await clerk.reload();
    await clerk.locator('.bo-sidemenu').waitFor();
    await clerk.locator('.bo-sidemenu a[href="/product"]').first().waitFor({ timeout: 15_000 });
    await clerkContext.close();
  });

  it("shows the server's refusal where the change was made", async () => {
    // the administrator's own role: nobody changes the permissions of their own role
    const adminRole = (await api('GET', `/api/user_account?filter=${encodeURIComponent('{"username":{"_eq":"admin"}}')}`)).data[0].role_id as number;
    await page.goto(url(`/user_role/${adminRole}`));
    await page.getByTestId('role-matrix').waitFor();
    await page.locator('#role-desc').fill('changed by e2e');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    const box = page.locator('.bo-admin-error');
    await box.waitFor();
    await expect(box.innerText()).resolves.toMatch(/สิทธิ์ของบทบาทของตัวเอง/);
    await expect(box.isVisible()).resolves.toBe(true);
    await page.waitForTimeout(600);
    await dismissToasts(page);
    await shot(page, 'admin-21-refusal');
  });

  it('browses the system log to the entry of that change', async () => {
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(url('/system_log'));
    await page.getByTestId('log-days').waitFor();
    await shot(page, 'admin-02-log-days');
    await page.locator(`tr[data-date="${today}"] a`).click();
    await page.getByTestId('log-entries').waitFor();
    await page.getByLabel('ข้อมูล').fill('user_role');
    await page.getByRole('button', { name: 'กรอง' }).click();
    await page.waitForURL(/entity=user_role/);
    await page.locator('[data-testid=log-entries] tbody tr[data-id]').first().waitFor();
    await shot(page, 'admin-03-log-day');
    // the newest user_role entry may be the refusal of the test before; the change is the update naming role_detail
    const first = page.locator('[data-testid=log-entries] tbody tr[data-id]').filter({ hasText: 'แก้ไข' }).first();
    await first.locator('a').click();
    const changes = page.getByTestId('log-changes');
    await changes.waitFor();
    await expect(changes.locator('tr[data-field="role_detail"]').count()).resolves.toBe(1);
    await expect(changes.locator('tr[data-field="role_detail"] .bo-diff-after').innerText()).resolves.toContain('product');
    await shot(page, 'admin-04-log-entry');
  });

  it('backs up and downloads the backup', async () => {
    // screens open in the running app as a link would (no reload each), except after a refused save (the form
    // stays changed) and where a screenshot must show the new screen
    await openInApp(page, '/db_manage');
    await page.getByTestId('backup-list').waitFor();
    await page.getByRole('button', { name: 'สำรองข้อมูลตอนนี้' }).click();
    const row = page.locator('[data-testid=backup-list] tbody tr[data-id]').first();
    await row.waitFor();
    await dismissToasts(page);
    await shot(page, 'admin-05-db-manage');
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'ดาวน์โหลด' }).click()]);
    const path = await download.path();
    expect(download.suggestedFilename()).toMatch(/^bk-.*\.sqlite$/);
    expect(statSync(path).size).toBeGreaterThan(10_000);
    // the restore asks first with the confirm dialog
    await row.getByRole('button', { name: 'กู้คืน' }).click();
    await page.getByRole('dialog').waitFor();
    await page.waitForTimeout(500);
    await shot(page, 'admin-06-restore-confirm');
    await page.getByRole('dialog').getByRole('button', { name: 'ยกเลิก', exact: true }).click();
  });

  it('shows the socket state and a ping time', async () => {
    await openInApp(page, '/test_com_socket');
    await page.getByTestId('socket-ping').filter({ hasText: /\d+(\.\d+)? ms/ }).waitFor({ timeout: 15_000 });
    await expect(page.getByTestId('socket-state').innerText()).resolves.toBe('เชื่อมต่อแล้ว');
    await expect(page.getByTestId('socket-attempts').innerText()).resolves.toBe('0 / 10');
    await page.getByRole('button', { name: 'ส่ง' }).click();
    await page.getByTestId('socket-echo').filter({ hasText: 'สวัสดี hello' }).waitFor();
    await shot(page, 'admin-07-socket');
  });

  it('tells a browser without Web Serial that it is not supported', async () => {
    const bare = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    // a browser without the Web Serial API (Firefox, Safari, phones)
    await bare.addInitScript(() => { delete (Navigator.prototype as unknown as Record<string, unknown>).serial; });
    const p = await bare.newPage();
    await signInInBrowser(p, server.baseUrl, 'admin', ADMIN_PASSWORD);
    await p.goto(url('/test_com_serial'));
    await p.getByTestId('serial-unsupported').waitFor();
    await expect(p.getByTestId('serial-unsupported').innerText()).resolves.toContain('Web Serial');
    await shot(p, 'admin-08-serial-unsupported');
    await bare.close();
  });

  it('uploads several files with a progress bar each and shows what the server stored', async () => {
    await openInApp(page, '/testuplaod');
    await page.getByTestId('upload-list').waitFor();
    await page.locator('#tu-files').setInputFiles([
      { name: 'หนึ่ง.txt', mimeType: 'text/plain', buffer: Buffer.from('first file\n') },
      { name: 'two.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') },
    ]);
    await expect(page.getByRole('progressbar').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'อัปโหลด', exact: true }).click();
    await page.getByTestId('stored-file').nth(1).waitFor();
    const stored = await page.getByTestId('stored-file').allInnerTexts();
    expect(stored.join('|')).toContain('หนึ่ง.txt');
    expect(stored.join('|')).toContain('two.csv');
    await shot(page, 'admin-14-upload-done');
  });

  it('edits an account: allowed inventories and companies, deactivation and reactivation', async () => {
    const clerkId = (await api('GET', `/api/user_account?filter=${encodeURIComponent('{"username":{"_eq":"e2eclerk"}}')}`)).data[0].id as number;
    const inventories = (await api('GET', '/api/inventory?limit=2&sort=id')).data as { id: number; code: string }[];
    await openInApp(page, `/user_account/${clerkId}`);
    await page.getByTestId('account-status').waitFor();
    await page.locator('.p-multiselect:has(#ua-inv)').click();
    for (const inv of inventories) await page.locator('.p-multiselect-panel li').filter({ hasText: inv.code }).first().click();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await page.locator('.p-toast-message').first().waitFor();
    await dismissToasts(page);
    const saved = (await api('GET', `/api/user_account/${clerkId}`)).data;
    const allowed = typeof saved.inventory_allow === 'string' ? JSON.parse(saved.inventory_allow) : saved.inventory_allow;
    expect([...allowed].sort()).toEqual(inventories.map((i) => i.id).sort());
    await shot(page, 'admin-18-account-multiselect');

    const clerkToken = await apiSignIn(server.baseUrl, 'e2eclerk', CLERK_PASSWORD);
    await page.getByRole('button', { name: 'ระงับการใช้งาน' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'ระงับการใช้งาน' }).click();
    await page.getByTestId('account-status').filter({ hasText: 'ระงับการใช้งาน' }).waitFor();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await apiClient(server.baseUrl, clerkToken)('GET', '/api/customer')).error?.code).toBe('UNAUTHORIZED');
    await page.getByRole('button', { name: 'เปิดใช้งานอีกครั้ง' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'เปิดใช้งานอีกครั้ง' }).click();
    await page.getByTestId('account-status').filter({ hasText: 'ใช้งานอยู่' }).waitFor();
    await dismissToasts(page);
  });

  it('edits a user type detail as a form', async () => {
    await openInApp(page, '/user_type/create');
    await page.locator('#ut-name').fill('E2E type');
    await page.locator('.p-dropdown:has(#ut-role)').click();
    await page.locator('.p-dropdown-panel li').filter({ hasText: 'E2E Clerk' }).click();
    await page.getByTestId('kv-type_detail').getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await page.getByLabel('ชื่อ 1').first().fill('max_discount');
    await page.getByTestId('kv-type_detail').getByLabel('ชนิด 1').selectOption('number');
    await page.getByTestId('kv-type_detail').getByLabel('ค่า 1').fill('15');
    await page.getByRole('button', { name: 'บันทึก' }).click();
    await page.waitForURL(/\/user_type\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = (await api('GET', `/api/user_type/${id}`)).data;
    const detail = typeof saved.type_detail === 'string' ? JSON.parse(saved.type_detail) : saved.type_detail;
    expect(detail).toEqual({ max_discount: 15 });
    await dismissToasts(page);
    await shot(page, 'admin-19-user-type-form');
  });

  it('a user edits their own account with an avatar; another id is not found', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1366, height: 860 }, locale: 'th-TH' });
    const p = await ctx.newPage();
    await signInInBrowser(p, server.baseUrl, 'e2eclerk', CLERK_PASSWORD);
    const clerkId = await p.evaluate(() => Number(localStorage.getItem('id')));
    await p.goto(url(`/account_edit/${clerkId}`));
    await p.locator('#ae-first').waitFor();
    await p.locator('#ae-first').fill('สมชาย');
    await p.locator('input[type=file]').setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: PNG });
    await p.getByTestId('avatar-preview').waitFor();
    await p.getByRole('button', { name: 'บันทึก' }).click();
    await p.locator('.p-toast-message').first().waitFor();
    const saved = (await api('GET', `/api/user_account/${clerkId}`)).data;
    expect(saved.first_name).toBe('สมชาย');
    expect(saved.user_avatar).toMatch(/\.png$/);
    await dismissToasts(p);
    await shot(p, 'admin-20-account-edit-avatar');
    await p.goto(url('/account_edit/1'));
    await p.getByTestId('not-found').waitFor();
    await ctx.close();
  });

  it('the other screens render in Thai', async () => {
    for (const [path, name] of [['/user_type/1', 'admin-09-user-type'], ['/user_account/1', 'admin-10-user-account'], ['/account_edit/1', 'admin-11-account-edit'], ['/loading', 'admin-13-loading'], ['/test_com_serial', 'admin-15-serial']] as const) {
      await page.goto(url(path));
      await page.locator('.bo-page, .bo-loading').first().waitFor();
      await page.waitForTimeout(400);
      await shot(page, name, true);
    }
    // and in English
    await openInApp(page, `/user_role/${roleId}`);
    await page.getByTestId('role-matrix').waitFor();
    await page.locator('.bo-lang').getByText('EN').click();
    await page.getByText('Permissions per menu').waitFor();
    await shot(page, 'admin-16-role-matrix-en');
    await openInApp(page, '/db_manage');
    await page.getByTestId('backup-list').waitFor();
    await shot(page, 'admin-17-db-manage-en');
    await page.locator('.bo-lang').getByText('TH').click();
    expect(errors).toEqual([]);
  });
});
