import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ADMIN, browserSession, closeSession, DEMO_PASSWORD, dismissToasts, shot, signInInBrowser, type BrowserSession } from './e2e-support.ts';

/**
 * Issue 48 in headless Chromium at 1366 px with the menu open: money columns in view, Thai words on
 * the confirmation and the loading screen, create-from lists open documents at once, a back-dated
 * issue shows the server's reason on the date field, the issue confirmation names series and date.
 */
describe('screens, round two', () => {
  let s: BrowserSession;
  const url = (p: string) => s.url(p);
  const first = async (entity: string, filter?: unknown) => (await s.api('GET', `/api/${entity}?limit=1&fields=id${filter ? `&filter=${encodeURIComponent(JSON.stringify(filter))}` : ''}`)).data[0];

  beforeAll(async () => { s = await browserSession(); s.page.setDefaultTimeout(15_000); }, 240_000);
  afterAll(() => closeSession(s));

  /** The right edge of the right-most cell of these selectors, against what is in view: the window and the table's scrolling box. */
  const rightEdges = (page: Page, selector: string) => page.evaluate((sel) => {
    const cells = [...document.querySelectorAll(sel)];
    const box = cells[0]?.closest('.bo-table-wrap')?.getBoundingClientRect().right ?? window.innerWidth;
    return { max: Math.max(0, ...cells.map((c) => c.getBoundingClientRect().right)), count: cells.length, width: Math.min(window.innerWidth, box) };
  }, selector);

  it('money columns stay in view with the menu open', async () => {
    const { page } = s;
    expect(await page.locator('.bo-sidemenu').isVisible()).toBe(true);
    const gr = await first('goods_receipt');
    const screens: [string, string, string][] = [
      ['/quotation/1', 'form.bo-form .bo-lines-table tbody tr:first-child td.bo-line-total', 'i48-fit-quotation'],
      [`/goods_receipt/${gr.id}`, 'form.bo-form .bo-lines-table tbody tr:first-child td[data-label="ต้นทุนต่อหน่วย"]', 'i48-fit-goods-receipt'],
      ['/stock_movement', '[data-testid=report-table] tbody tr:first-child td.bo-num-cell', 'i48-fit-stock-movement'],
      ['/collection_summary', '[data-testid=collection-table] tbody tr:first-child td.bo-num-cell', 'i48-fit-collection-summary'],
    ];
    for (const [path, cells, name] of screens) {
      await page.goto(url(path));
      await page.locator(cells).first().waitFor();
      await page.waitForTimeout(300);
      await shot(page, name);
      const edge = await rightEdges(page, cells);
      expect(edge.count, path).toBeGreaterThan(0);
      expect(edge.max, `${path}: the right-most column ends at ${edge.max} px of ${edge.width}`).toBeLessThanOrEqual(edge.width);
    }
  }, 90_000);

  /**
   * Where a lines grid's headings are against what is in view: each heading's box, whether its text is clipped, and the left
   * edge of what sticks to the right (the line's amount and the remove button; the scrolling columns pass under them).
   */
  const gridHeads = (page: Page) => page.locator('form.bo-form [data-lines-grid]').first().evaluate((grid) => {
    const wrap = grid.querySelector('.bo-table-wrap')!.getBoundingClientRect();
    const heads = [...grid.querySelectorAll<HTMLElement>('thead th')];
    const sticky = heads.filter((h) => getComputedStyle(h).position === 'sticky').map((h) => h.getBoundingClientRect().left);
    return {
      wrap: { left: wrap.left, right: Math.min(wrap.right, window.innerWidth) },
      stickyLeft: Math.min(wrap.right, ...sticky),
      heads: heads.map((h) => ({ text: h.innerText.replace(/\s+/g, ' ').trim(), left: h.getBoundingClientRect().left, right: h.getBoundingClientRect().right, clipped: h.scrollWidth > h.clientWidth, sticky: getComputedStyle(h).position === 'sticky' })),
    };
  });

  /** Opens a document form at `path` with its first line shown (a new one gets a line added), scrolled to its lines grid. */
  async function openLinesGrid(page: Page, path: string, name: string): Promise<void> {
    await page.goto(url(path));
    await page.locator('form.bo-form [data-lines-grid]').waitFor();
    if (path.endsWith('/create')) {
      await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
      await page.keyboard.press('Escape');
    }
    await page.locator('form.bo-form [data-line-row="0"]').waitFor();
    await page.locator('form.bo-form [data-lines-grid]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await shot(page, name);
  }

  it('a new document at 1366 px: its empty lines grid\'s headings on at most two lines, its closed date field\'s button beside the input', async () => {
    const page = await s.newPage({ user: ADMIN, context: { viewport: { width: 1366, height: 768 } } });
    try {
      for (const path of ['/tax_invoice/create', '/goods_receipt/create']) {
        await page.goto(url(path));
        await page.locator('form.bo-form [data-lines-grid] thead th').first().waitFor();
        expect(await page.locator('form.bo-form [data-line-row]').count(), `${path}: no line yet`).toBe(0);
        // the line boxes of each heading's text, as the person reads them
        const heads = await page.locator('form.bo-form [data-lines-grid] thead th').evaluateAll((ths) => ths.map((th) => {
          const range = document.createRange();
          range.selectNodeContents(th);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          return { text: (th.textContent ?? '').trim(), lines: tops.size };
        }));
        const numbers = heads.filter((h) => /ราคาต่อหน่วย|ส่วนลด|จำนวน/.test(h.text));
        expect(numbers.length, `${path}: ${heads.map((h) => h.text).join(' | ')}`).toBeGreaterThan(0);
        for (const h of heads) expect(h.lines, `${path}: "${h.text}" takes ${h.lines} lines`).toBeLessThanOrEqual(2);
        // and a closed date field (no calendar opened yet on this page) has its button beside its input, not under it
        const date = await page.locator('form.bo-form .bo-date').first().evaluate((root) => {
          const [input, button] = [root.querySelector('input')!.getBoundingClientRect(), root.querySelector('button')!.getBoundingClientRect()];
          return { topDiff: Math.abs(input.top - button.top), gap: button.left - input.right };
        });
        expect(date.topDiff, `${path}: the date's button ${date.topDiff} px off its input's row`).toBeLessThan(2);
        expect(Math.abs(date.gap), `${path}: ${date.gap} px between the date's input and its button`).toBeLessThan(2);
        await shot(page, `i48-empty-grid-${path.split('/')[1]}`);
      }
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it('a tax invoice\'s lines at 1366 × 768 with the menu open: ส่วนลด (%) and the money columns read whole, beside the amount', async () => {
    const page = await s.newPage({ user: ADMIN, context: { viewport: { width: 1366, height: 768 } } });
    try {
      expect(await page.locator('.bo-sidemenu').isVisible()).toBe(true);
      const issued = await first('tax_invoice', { status: { _eq: 'issued' } });
      for (const [path, name] of [[`/tax_invoice/${String(issued.id)}`, 'i48-fit-tax-invoice-lines'], ['/tax_invoice/create', 'i48-fit-tax-invoice-new-line']] as const) {
        await openLinesGrid(page, path, name);
        const grid = await gridHeads(page);
        const head = (text: string) => {
          const h = grid.heads.find((x) => x.text.replace(/ \*$/, '') === text);
          expect(h, `${path}: the heading ${text} among ${grid.heads.map((x) => x.text).join(' | ')}`).toBeTruthy();
          return h!;
        };
        // the headings of the price, the discounts and the amount: whole (not clipped in their cell), and not under the
        // sticky amount (ส่วนลด (%) was cut at "ส่วนลด (" by it)
        for (const text of ['ราคาต่อหน่วย', 'ส่วนลด (%)', 'ส่วนลด']) {
          const h = head(text);
          expect(h.clipped, `${path}: ${text} clipped`).toBe(false);
          expect(h.left, `${path}: ${text}`).toBeGreaterThanOrEqual(grid.wrap.left);
          expect(h.right, `${path}: ${text} ends at ${h.right} px, the sticky amount starts at ${grid.stickyLeft} px`).toBeLessThanOrEqual(grid.stickyLeft + 0.5);
        }
        // the amount is in view, and the remove button's column (on a form that can still change) does not cover it
        const amount = head('จำนวนเงิน');
        expect(amount.clipped).toBe(false);
        const after = grid.heads.filter((h) => h.sticky && h.left > amount.left);
        expect(amount.right, `${path}: the amount ends at ${amount.right} px`).toBeLessThanOrEqual(Math.min(grid.wrap.right, ...after.map((h) => h.left)) + 0.5);
      }
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it('a journal voucher at 1366 × 768 with the menu open: every column, debit and credit and the supplier, in view', async () => {
    const page = await s.newPage({ user: ADMIN, context: { viewport: { width: 1366, height: 768 } } });
    try {
      expect(await page.locator('.bo-sidemenu').isVisible()).toBe(true);
      // the entry a purchase invoice wrote when it was posted: its payable line names the supplier
      const entry = await first('journal_entry', { source_entity: { _eq: 'purchase_invoice' } });
      expect(entry, 'a demo purchase invoice\'s journal entry').toBeTruthy();
      for (const [path, name] of [[`/journal_entry/${String(entry.id)}`, 'i48-fit-journal-purchase'], ['/journal_entry/create', 'i48-fit-journal-new-line']] as const) {
        await openLinesGrid(page, path, name);
        if (!path.endsWith('/create')) {
          // the supplier is there to be seen (the payable line's)
          const suppliers = await page.locator('form.bo-form [data-lines-grid] td[data-label="ผู้ขาย"] input').evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
          expect(suppliers.some((v) => v !== ''), 'a line names the supplier').toBe(true);
        }
        // the grid does not scroll sideways: the description and the parties gave way, not the amounts
        const overflow = await page.locator('form.bo-form [data-lines-grid] .bo-table-wrap').evaluate((w) => w.scrollWidth - w.clientWidth);
        expect(overflow, `${path}: the lines are ${overflow} px wider than their box`).toBeLessThanOrEqual(0);
        for (const label of ['เดบิต', 'เครดิต', 'ลูกค้า', 'ผู้ขาย']) {
          const edge = await rightEdges(page, `form.bo-form [data-lines-grid] tbody tr:first-child td[data-label="${label}"]`);
          expect(edge.count, `${path}: ${label}`).toBe(1);
          expect(edge.max, `${path}: ${label} ends at ${edge.max} px of ${edge.width}`).toBeLessThanOrEqual(edge.width);
        }
      }
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it('on a 390 px phone a posted document\'s รายการบัญชี fits its card: the credit column in view, no sideways scroll', async () => {
    const context = await s.browser.newContext({ storageState: await s.context.storageState(), viewport: { width: 390, height: 844 }, locale: 'th-TH', isMobile: true, hasTouch: true });
    try {
      const phone = await context.newPage();
      // a receipt's entry was the widest (39 px past the card), a delivery order's 12 px; a goods receipt's amounts are the largest
      for (const entity of ['receipt', 'delivery_order', 'goods_receipt', 'tax_invoice']) {
        const rows = (await s.api('GET', `/api/${entity}?limit=5&sort=-id&fields=id`)).data as { id: number }[];
        let id: number | undefined;
        for (const r of rows) if (((await s.api('GET', `/api/${entity}/${r.id}/journal`)).data?.entries ?? []).length > 0) { id = r.id; break; }
        expect(id, `a demo ${entity} with a journal entry`).toBeTruthy();
        await phone.goto(url(`/${entity}/${String(id)}`));
        const panel = phone.getByTestId('document-journal');
        await panel.locator('[data-testid=document-journal-entry] tbody tr').first().waitFor();
        const fit = await panel.evaluate((p) => [...p.querySelectorAll<HTMLElement>('[data-testid=document-journal-entry]')].map((e) => {
          const box = e.getBoundingClientRect();
          const credits = [...e.querySelectorAll('tr > :last-child')].map((c) => c.getBoundingClientRect().right);
          return { overflow: e.scrollWidth - e.clientWidth, right: Math.min(box.right, window.innerWidth), credit: Math.max(...credits) };
        }));
        expect(fit.length, entity).toBeGreaterThan(0);
        for (const f of fit) {
          expect(f.overflow, `${entity}: the entry is ${f.overflow} px wider than its card`).toBeLessThanOrEqual(0);
          expect(f.credit, `${entity}: the credit column ends at ${f.credit} px, the card at ${f.right} px`).toBeLessThanOrEqual(f.right + 0.5);
        }
        expect(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), entity).toBeLessThanOrEqual(0);
        if (entity === 'receipt') {
          await panel.evaluate((p) => p.scrollIntoView({ block: 'center' }));
          await shot(phone, 'i48-phone-journal-panel');
        }
      }
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a back-dated issue shows the server\'s reason on the date field; the confirmation names the series and the date', async () => {
    const { page, api } = s;
    const last = (await api('GET', `/api/tax_invoice?limit=1&sort=-doc_date&fields=id,doc_date,doc_no,your_company_id,customer_id&filter=${encodeURIComponent(JSON.stringify({ status: { _eq: 'issued' } }))}`)).data[0];
    const product = await first('product');
    const day = new Date(`${String(last.doc_date)}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() - 1);
    const earlier = day.toISOString().slice(0, 10);
    const draft = (await api('POST', '/api/tax_invoice', { doc_date: earlier, your_company_id: last.your_company_id, customer_id: last.customer_id, items: [{ product_id: product.id, qty: 1, price: 100 }] })).data;
    const code = (await api('GET', `/api/your_company/${String(last.your_company_id)}?fields=id,code`)).data.code as string;
    await page.goto(url(`/tax_invoice/${String(draft.id)}`));
    await page.getByRole('button', { name: 'ออกใบกำกับภาษี' }).click();
    const dialog = page.getByRole('dialog');
    const [y, m, d] = earlier.split('-').map(Number) as [number, number, number];
    const months = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.'];
    await expect.poll(() => dialog.innerText()).toContain(`ชุด ${code}-IV${y}${String(m).padStart(2, '0')}-… ลงวันที่ ${d} ${months[m - 1]} ${y + 543}`);
    // the confirmation's buttons read in Thai
    expect(await dialog.getByRole('button', { name: 'ยกเลิก', exact: true }).count()).toBe(1);
    await shot(page, 'i48-issue-confirm');
    await dialog.getByRole('button', { name: 'ออกใบกำกับภาษี' }).click();
    // the date field is marked with the server's reason, and the toast names it and says what to do
    const fieldError = page.locator('#doc_date-error, [id$="doc_date-error"], .bo-field-error').filter({ hasText: String(last.doc_no) });
    await fieldError.first().waitFor();
    const toast = page.locator('.p-toast-message').filter({ hasText: 'วันที่' });
    await expect.poll(() => toast.first().innerText()).toContain('แก้ไขช่องที่ทำเครื่องหมายสีแดง');
    expect(await toast.first().innerText()).toContain(String(last.doc_no));
    await shot(page, 'i48-backdated-issue');
    expect((await api('GET', `/api/tax_invoice/${String(draft.id)}?fields=id,status`)).data.status).toBe('draft');
    await dismissToasts(page);
  }, 90_000);

  it('create-from lists every open bill at once, and one amount received makes the receipt', async () => {
    const { page, api } = s;
    await page.goto(url('/receipt/billing_note'));
    const docs = page.getByTestId('create-from-documents');
    await docs.locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('create-from-customer').inputValue()).toBe('*');
    await shot(page, 'i48-create-from-all');
    await docs.locator('tbody tr').first().locator('input[type=checkbox]').check();
    await page.getByTestId('create-from-lines').waitFor();
    await page.getByTestId('create-from-received').fill('100');
    await page.getByTestId('create-from-submit').click();
    await page.waitForURL((u) => /^\/receipt\/\d+$/.test(u.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const rc = (await api('GET', `/api/receipt/${id}`)).data;
    expect(rc.total_amount).toBe(100);
    expect(rc.items.map((l: { amount: number }) => l.amount)).toEqual([100]);
    // the bill's VAT treatment in words that match the money: the amount received includes the VAT
    if (rc.vat_type !== 'none') {
      const vat = page.locator('form.bo-form [data-field="vat_type"]');
      await expect.poll(() => vat.innerText()).toContain('รวม VAT');
      expect(await vat.innerText()).not.toContain('ไม่รวม VAT');
      await shot(page, 'i48-receipt-vat-words');
    }
  }, 90_000);

  it('a goods receipt from a purchase order starts on the order\'s warehouse; the product picker lists by code', async () => {
    const { page, api } = s;
    await page.goto(url('/goods_receipt/purchase_order'));
    const docs = page.getByTestId('create-from-documents');
    await docs.locator('tbody tr').first().waitFor();
    const no = (await docs.locator('tbody tr').first().locator('td').nth(1).innerText()).trim();
    const po = (await api('GET', `/api/purchase_order?fields=id,inventory_id&filter=${encodeURIComponent(JSON.stringify({ doc_no: { _eq: no } }))}`)).data[0];
    const warehouse = (await api('GET', `/api/inventory/${String(po.inventory_id)}?fields=id,name`)).data;
    await docs.locator('tbody tr').first().locator('input[type=checkbox]').check();
    const field = page.getByTestId('create-from-header').locator('[data-field="inventory_id"] input');
    await expect.poll(() => field.inputValue()).toBe(String(warehouse.name));
    await shot(page, 'i48-gr-warehouse');

    await page.goto(url('/quotation/create'));
    await page.locator('.bo-add-line').click();
    const picker = page.locator('[data-field="items"] .bo-link-select input').first();
    await picker.click();
    const options = page.locator('.bo-link-panel li[role="option"]');
    await options.nth(2).waitFor();
    const shown = (await options.allInnerTexts()).slice(0, 8).map((x) => x.trim().split(/\s+/)[0]!);
    expect(shown).toEqual([...shown].sort());
    await shot(page, 'i48-product-picker-order');
    await page.keyboard.press('Escape');
  }, 90_000);

  it('Thai words on the delete confirmation and the loading screen', async () => {
    const { page } = s;
    await page.goto(url('/loading'));
    await page.getByText('กำลังโหลด... กรุณารอสักครู่').first().waitFor();
    const customer = await first('customer');
    await page.goto(url(`/customer/${String(customer.id)}`));
    await page.locator('.bo-form-actions').getByRole('button', { name: 'ลบ', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'ยกเลิก', exact: true }).waitFor();
    expect(await dialog.getByRole('button', { name: 'ลบ', exact: true }).count()).toBe(1);
    await shot(page, 'i48-delete-confirm-thai');
    await dialog.getByRole('button', { name: 'ยกเลิก', exact: true }).click();
    expect(s.errors).toEqual([]);
  }, 90_000);

  it('a report date takes typed text (Buddhist era), and a one-warehouse user opens the balance by warehouse on it', async () => {
    const { page } = s;
    await page.goto(url('/stock_movement'));
    await page.getByTestId('report-table').waitFor();
    const from = page.getByRole('combobox', { name: 'ตั้งแต่วันที่' }).or(page.getByLabel('ตั้งแต่วันที่')).first();
    const asked = page.waitForRequest((r) => r.url().includes('/api/report/stock_movement?') && r.url().includes('date_from=2026-11-02'));
    await from.click();
    await from.fill('');
    await from.pressSequentially('2/11/2569');
    await from.press('Tab');
    // the report is asked again from the typed date, and the field keeps it
    await expect.poll(() => from.inputValue()).toBe('2 พ.ย. 2569');
    await asked;
    await shot(page, 'i48-report-typed-date');

    const context = await s.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' });
    try {
      const clerk = await context.newPage();
      await signInInBrowser(clerk, s.server.baseUrl, 'warehouse', DEMO_PASSWORD);
      await clerk.goto(url('/inventory_stock_balance'));
      await clerk.getByTestId('report-table').waitFor();
      expect(await clerk.getByTestId('report-param-selectedInventory').inputValue()).not.toBe('');
      expect(await clerk.locator('[role=alert]').count()).toBe(0);
      await shot(clerk, 'i48-one-warehouse-balance');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('a cold start asks for nothing the server does not have: a report (no entity schema) and home (counts of lists only)', async () => {
    const context = await s.browser.newContext({ storageState: await s.context.storageState(), viewport: { width: 1366, height: 900 }, locale: 'th-TH' });
    try {
      const page = await context.newPage();
      const missing: string[] = [];
      page.on('response', (r) => { if (r.status() === 404) missing.push(new URL(r.url()).pathname); });
      for (const [path, ready] of [['/stock_balance_all', 'report-table'], ['/incoming_dashboard', 'report-table'], ['/', 'home-dashboard']] as const) {
        await page.goto(url(path));
        await page.getByTestId(ready).first().waitFor();
        // until the page has asked for everything it asks for (500 ms without a request; its socket is a websocket,
        // which does not count), not a fixed 2 s
        await page.waitForLoadState('networkidle');
      }
      expect(missing).toEqual([]);
    } finally {
      await context.close();
    }
  }, 90_000);

  it('the viewer opening the custom-fields screen reads that it is for administrators, with no "เพิ่มฟิลด์"', async () => {
    const context = await s.browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH' });
    try {
      const viewer = await context.newPage();
      await signInInBrowser(viewer, s.server.baseUrl, 'viewer', DEMO_PASSWORD);
      await viewer.goto(url('/custom_field'));
      await viewer.getByTestId('custom-fields-admin-only').waitFor();
      expect(await viewer.getByText('เพิ่มฟิลด์').count()).toBe(0);
      expect(await viewer.getByTestId('custom-field-table').count()).toBe(0);
      await shot(viewer, 'i48-custom-fields-viewer');
    } finally {
      await context.close();
    }
    // the administrator still has the form
    await s.page.goto(url('/custom_field'));
    await s.page.getByRole('button', { name: 'เพิ่มฟิลด์' }).waitFor();
  }, 90_000);
});
