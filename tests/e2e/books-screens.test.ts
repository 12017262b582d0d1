import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSession, closeSession, DEMO_PASSWORD, shot, signInInBrowser, type ApiCall, type BrowserSession } from './e2e-support.ts';

/**
 * Issue 50 §6, the books on screen, as the demo's accountant (นักบัญชี): the chart as a tree with balances,
 * a voucher's lines with the running difference (ผลต่าง) typed by keyboard, a drill-down from the trial
 * balance to the account's ledger for the same dates and on to the source document, and a posted
 * document's รายการบัญชี, which the demo's viewer does not get.
 */
describe('the books on screen', () => {
  let s: BrowserSession;
  let page: Page;
  let errors: string[];
  let api: ApiCall;
  const url = (p: string) => s.url(p);
  const active = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.id ?? '');

  beforeAll(async () => {
    s = await browserSession({ signIn: { username: 'accountant', password: DEMO_PASSWORD } });
    ({ page, errors, api } = s);
  }, 180_000);
  afterAll(() => closeSession(s));

  it('shows the chart as a tree whose headings sum their accounts, an account opening its ledger', async () => {
    await page.goto(url('/account/tree'));
    const row = (code: string) => page.locator(`[data-testid=account-tree-row][data-code="${code}"]`);
    await row('1111').waitFor();
    // balances arrive with the trial balance
    await expect.poll(() => row('1100').locator('[data-col=balance]').innerText()).not.toBe('');
    const money = async (code: string) => Math.round(Number((await row(code).locator('[data-col=balance]').innerText()).replace(/,/g, '')) * 100);
    // 1110 เงินสดและรายการเทียบเท่าเงินสด = its four accounts, closing and opening
    const parts = await Promise.all(['1111', '1112', '1113', '1114'].map(money));
    expect(await money('1110')).toBe(parts.reduce((a, b) => a + b, 0));
    expect(await money('1141')).toBeGreaterThan(0);
    await shot(page, 'books-01-chart-tree');
    await row('1141').getByTestId('account-tree-link').click();
    await page.waitForURL((u) => u.pathname === '/general_ledger');
    expect(new URL(page.url()).searchParams.get('account')).toBe('1141');
    await page.getByTestId('report-table').waitFor();
    expect(await page.getByTestId('report-param-account').inputValue()).toBe('1141');
  });

  it('opens a balance sheet line\'s accounts, as of the same date', async () => {
    await page.goto(url('/balance_sheet'));
    await page.getByTestId('report-table').waitFor();
    const inventories = page.locator('td[data-col=dbd_line] a', { hasText: 'สินค้าคงเหลือ' }).first();
    await inventories.click();
    await page.waitForURL((u) => u.pathname === '/account/tree');
    expect(new URL(page.url()).searchParams.get('dbd_line')).toBe('inventories');
    expect(new URL(page.url()).searchParams.get('date_to')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await page.getByTestId('account-tree-line').waitFor();
    await page.locator('[data-testid=account-tree-row][data-code="1141"]').waitFor();
    expect(await page.locator('[data-testid=account-tree-row][data-code="1111"]').count()).toBe(0);
    await shot(page, 'books-01b-balance-sheet-line');
  });

  it('opens a P&L line\'s accounts signed as the statement shows them: they add up to the figure clicked', async () => {
    const to = new Date().toISOString().slice(0, 10);
    const from = `${Number(to.slice(0, 4)) - 1}-01-01`;
    await page.goto(url(`/profit_and_loss?date_from=${from}&date_to=${to}`));
    await page.getByTestId('report-table').waitFor();
    const sales = page.locator('[data-testid=report-table] tbody tr').filter({ has: page.locator('td[data-col=dbd_line]', { hasText: 'รายได้จากการขายและการให้บริการ' }) });
    const cents = (text: string) => Math.round(Number(text.replace(/,/g, '')) * 100);
    const figure = cents(await sales.locator('td[data-col=total_income]').innerText());
    expect(figure, 'the demo sells').toBeGreaterThan(0);
    await sales.locator('td[data-col=dbd_line] a').click();
    await page.waitForURL((u) => u.pathname === '/account/tree');
    expect(new URL(page.url()).searchParams.get('without_closing')).toBe('true');
    const total = page.getByTestId('account-tree-total');
    await total.waitFor();
    // income credit-positive: the line's net movement is the P&L's figure, not its negative, and so are its accounts'
    expect(cents(await total.locator('[data-col=movement]').innerText())).toBe(figure);
    const moves = (await page.locator('[data-testid=account-tree-row]:not([data-group]) [data-col=movement]').allInnerTexts()).map(cents);
    expect(moves.reduce((a, b) => a + b, 0)).toBe(figure);
    expect(Math.max(...moves)).toBeGreaterThan(0);
    expect(await page.getByTestId('account-tree-line').innerText()).toContain('ไม่รวมรายการปิดบัญชีสิ้นปี');
    expect(await page.getByTestId('account-tree').innerText()).toContain('เครดิตเป็นบวก');
    await shot(page, 'books-01c-profit-and-loss-line');
  });

  it('types a voucher by keyboard: the account picker finds code and name, the difference follows, Enter moves across', async () => {
    await page.goto(url('/journal_entry/create'));
    await page.locator('form[data-entity=journal_entry]').waitFor();
    // a voucher typed by hand has no source document nor reversal to show (issue 52 §1)
    for (const f of ['source_entity', 'source_id', 'source_doc_no', 'reverses_id']) expect(await page.locator(`form[data-entity=journal_entry] [data-field="${f}"]`).count(), f).toBe(0);
    const difference = () => page.getByTestId('lines-balance').getAttribute('data-difference');
    expect(await difference()).toBe('0.00');
    await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await expect.poll(active).toBe('items-0-account_id');
    // by code: the choice reads "1111 เงินสด"
    await page.keyboard.type('1111');
    const options = page.locator('.bo-link-panel li[role=option]');
    await expect.poll(async () => (await options.allInnerTexts()).join('|')).toContain('1111 เงินสด');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.bo-link-panel').count()).toBe(0);
    // Enter moves across the line: description, then debit
    await page.keyboard.press('Enter');
    await expect.poll(active).toBe('items-0-description');
    await page.keyboard.type('รับเงินทุนเพิ่ม');
    await page.keyboard.press('Enter');
    await expect.poll(active).toBe('items-0-debit');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('1500');
    await page.keyboard.press('Enter');
    await expect.poll(active).toBe('items-0-credit');
    await expect.poll(difference).toBe('1500.00');
    expect(await page.getByTestId('lines-balance').innerText()).toContain('ผลต่าง');
    expect(await page.getByTestId('lines-balance').innerText()).toContain('เดบิตมากกว่า');
    await shot(page, 'books-02-voucher-difference');
    // by name: a second line credits ทุนที่ออกและชำระแล้ว
    await page.getByRole('button', { name: 'เพิ่มรายการ' }).click();
    await expect.poll(active).toBe('items-1-account_id');
    await page.keyboard.type('ทุนที่ออก');
    await expect.poll(async () => (await options.allInnerTexts()).join('|')).toContain('3100 ทุนที่ออกและชำระแล้ว');
    await page.keyboard.press('Enter');
    await page.locator('#items-1-credit').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('1500');
    await expect.poll(difference).toBe('0.00');
    await shot(page, 'books-03-voucher-balanced');
    await page.keyboard.press('Control+s');
    await page.waitForURL((u) => /^\/journal_entry\/\d+$/.test(u.pathname));
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = (await api('GET', `/api/journal_entry/${id}`)).data;
    expect(saved.items.map((l: { debit: number; credit: number }) => [l.debit, l.credit])).toEqual([[1500, 0], [0, 1500]]);
  });

  it('drills down from the trial balance to the ledger for the same dates and company, then to the document and its รายการบัญชี', async () => {
    // the company of an issued tax invoice: its receivable is in that company's books
    const invoices = (await api('GET', `/api/tax_invoice?sort=-id&limit=1&filter=${encodeURIComponent(JSON.stringify({ status: { _eq: 'issued' } }))}`)).data as { your_company_id: number }[];
    const company = invoices[0]!.your_company_id;
    // the demo's documents are dated from a year before today (its dates follow today)
    const to = new Date().toISOString().slice(0, 10);
    const from = `${Number(to.slice(0, 4)) - 1}-01-01`;
    await page.goto(url(`/trial_balance?date_from=${from}&date_to=${to}&company=${company}`));
    await page.getByTestId('report-table').waitFor();
    await expect.poll(() => page.getByTestId('report-param-company').inputValue()).toBe(String(company));
    const receivable = page.locator('[data-testid=report-table] tbody tr').filter({ has: page.locator('td[data-col=account_code]', { hasText: /^1131$/ }) });
    await receivable.locator('td[data-col=account_code] a').click();
    await page.waitForURL((u) => u.pathname === '/general_ledger');
    const q = new URL(page.url()).searchParams;
    expect(Object.fromEntries(q)).toEqual({ account: '1131', date_from: from, date_to: to, company: String(company) });
    await page.getByTestId('report-table').waitFor();
    await shot(page, 'books-04-ledger-from-trial-balance');
    // a tax invoice's row opens the invoice
    const invoiceLink = page.locator('td[data-col=source_doc_no] a', { hasText: /-IV/ }).first();
    const docNo = await invoiceLink.innerText();
    await invoiceLink.click();
    await page.waitForURL((u) => /^\/tax_invoice\/\d+$/.test(u.pathname));
    const panel = page.getByTestId('document-journal');
    await panel.waitFor();
    // the action bar (issue 52 §6): a posted invoice's many buttons keep their Thai words whole (no "ใบลด|หนี้"), and a
    // line's sticky amount scrolled behind the bar stays behind it
    const bar = page.locator('.bo-form-actions').first();
    const heights = await bar.locator('.p-button').evaluateAll((els) => els.map((e) => [e.textContent, e.getBoundingClientRect().height] as const));
    expect(heights.filter(([, h]) => h > 50), 'a button of two lines').toEqual([]);
    // the accountant's bar fits on one row anyway: the admin's (more buttons) wraps the bar, never a word
    expect(await bar.locator('.p-button').evaluateAll((els) => els.map((e) => getComputedStyle(e).whiteSpace))).not.toContain('normal');
    await page.locator('form[data-entity=tax_invoice] td.bo-line-total').first().evaluate((el) => el.scrollIntoView({ block: 'end' }));
    const box = (await bar.getByRole('button', { name: 'กลับไปรายการ' }).boundingBox())!;
    expect(await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.bo-form-actions'), [box.x + box.width / 2, box.y + box.height / 2])).toBe(true);
    expect(await panel.innerText()).toContain('รายการบัญชี');
    expect(await panel.innerText()).toContain('1131 ลูกหนี้การค้า');
    expect(await panel.innerText()).toContain(docNo);
    await panel.scrollIntoViewIfNeeded();
    await shot(page, 'books-05-document-journal');
    // the entry opens from the panel
    const invoicePath = new URL(page.url()).pathname;
    await panel.getByTestId('document-journal-link').first().click();
    await page.waitForURL((u) => /^\/journal_entry\/\d+$/.test(u.pathname));
    // an entry a document wrote names it, read-only
    const sourceNo = page.locator('form[data-entity=journal_entry] #field-source_doc_no');
    await expect.poll(() => sourceNo.inputValue()).toBe(docNo);
    expect(await sourceNo.isEditable()).toBe(false);
    // and the entry opens its document again, named in words (the schema's name of its kind is no field on screen)
    const back = page.getByTestId('source-document-link');
    await expect.poll(() => back.innerText()).toContain(`ใบกำกับภาษี ${docNo}`);
    const values = await page.locator('form[data-entity=journal_entry] input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    expect(values.filter((v) => v.includes('tax_invoice'))).toEqual([]);
    await shot(page, 'books-06-entry-source-link');
    await back.click();
    await page.waitForURL((u) => u.pathname === invoicePath);

    // the demo's viewer sees the invoice, not its books
    const invoiceId = (await api('GET', `/api/tax_invoice?filter=${encodeURIComponent(JSON.stringify({ doc_no: { _eq: docNo } }))}`)).data[0].id;
    const viewer = await s.newPage();
    await signInInBrowser(viewer, s.server.baseUrl, 'viewer', DEMO_PASSWORD);
    // nor does it ask for them: the server would answer 403
    const askedJournal: string[] = [];
    viewer.on('request', (r) => { if (/\/journal(\?|$)/.test(new URL(r.url()).pathname)) askedJournal.push(r.url()); });
    await viewer.goto(url(`/tax_invoice/${invoiceId}`));
    await viewer.locator('form[data-entity=tax_invoice]').waitFor();
    await viewer.getByTestId('document-chain').waitFor();
    await viewer.waitForLoadState('networkidle');
    expect(await viewer.getByTestId('document-journal').count()).toBe(0);
    expect(askedJournal).toEqual([]);
    expect(errors).toEqual([]);
  });
});
