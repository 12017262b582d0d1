/**
 * Issue 50 §3, year end: POST /api/ledger/close-year {company, year} writes one closing entry dated 31 December that
 * zeroes the year's income and expense accounts into the `retained_earnings` role account, and closes the company's
 * books until that day. The next year's P&L starts at zero, the balance sheet still balances (the profit moved from
 * "not yet closed" to retained earnings), and the closed year's own P&L still shows its profit (the closing entry is
 * left out of it). A second close, a year not ended, and a year whose earlier year is open are refused (409
 * YEAR_CLOSE_REFUSED); only a role with edit on the company and on journal entries may close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';
import { byRole, entriesOf } from '../support/ledger-fixtures.ts';
import { reportOf } from '../support/books-agree.ts';

type Row = Record<string, any>;
const cents = (n: unknown) => Math.round(Number(n) * 100);

describe.each(testDialects())('closing a year on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  const accounts = new Map<number, Row>();
  const role = (r: string) => [...accounts.values()].find((a) => a.role === r)!.id as number;
  let rent: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    customer = await c.customer();
    for (const a of await c.ok(c.call('GET', '/api/account?limit=500', c.admin)) as unknown as Row[]) accounts.set(a.id, a);
    const rentCode = `5${c.next('').replace(/\D/g, '').slice(-3)}9`;
    rent = await c.make('account', { code: rentCode, name_th: 'ค่าเช่า', name_en: 'Rent', account_type: 'expense', dbd_line: 'selling_admin_expenses', is_group: false });
    accounts.set(rent, { id: rent, code: rentCode, role: null, account_type: 'expense' });
  });
  afterAll(async () => t?.close());

  const close = (body: Row, as = c.admin) => c.call('POST', '/api/ledger/close-year', { ...as, 'accept-language': 'th' }, body);
  const voucher = async (date: string, items: Row[]) => {
    const jv = await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: date, your_company_id: company, memo: 'ทดสอบปิดบัญชี', items }), 201);
    await c.ok(c.action('journal_entry', jv.id, 'post'));
  };
  const report = (name: string, q: Record<string, string | number>) => reportOf(c)(name, { ...q, company });

  it('closes 2024 then 2025: the P&L of the next year starts at zero, the balance sheet balances, a second close is refused', async () => {
    // 2024: sales 1,000.00 on credit, rent 400.00 in cash; 2025: sales 2,500.50 in cash, rent 3,000.00 (a loss of 499.50)
    await voucher('2024-03-10', [{ account_id: role('receivable'), debit: 1000, customer_id: customer }, { account_id: role('sales'), credit: 1000 }]);
    await voucher('2024-06-30', [{ account_id: rent, debit: 400 }, { account_id: role('cash'), credit: 400 }]);
    await voucher('2025-02-01', [{ account_id: role('cash'), debit: 2500.5 }, { account_id: role('sales'), credit: 2500.5 }]);
    await voucher('2025-09-01', [{ account_id: rent, debit: 3000 }, { account_id: role('cash'), credit: 3000 }]);

    // 2024 is still open: 2025 cannot be closed before it
    const early = await close({ company, year: 2025 });
    expectError(early, 409, 'YEAR_CLOSE_REFUSED');
    expect(early.json().error.params.reason).toBe('earlier_year_open');
    expect(early.json().error.message).toContain('ปิดบัญชีปีก่อนหน้าก่อน');

    const first = await c.ok(close({ company, year: 2024 }));
    expect(first).toMatchObject({ company, year: 2024, net_profit: 600, books_closed_until: '2024-12-31' });
    const [entry] = (await entriesOf(c, 'your_company', company)).filter((e) => e.id === first.entry_id);
    expect(entry).toMatchObject({ doc_date: '2024-12-31', journal: 'closing', doc_no: first.entry_no });
    // Dr sales 1,000.00 / Cr rent 400.00 / Cr retained earnings 600.00 (the profit)
    expect(byRole(accounts, entry!)).toEqual({ sales: 1000, [`#${rent}`]: -400, retained_earnings: -600 });
    expect((await c.ok(c.call('GET', `/api/your_company/${company}`, c.admin))).books_closed_until).toBe('2024-12-31');

    // a second close of the same year is refused, and writes nothing
    const again = await close({ company, year: 2024 });
    expectError(again, 409, 'YEAR_CLOSE_REFUSED');
    expect(again.json().error.params.reason).toBe('already_closed');
    expect(again.json().error.message).toContain('ปิดซ้ำไม่ได้');
    // the closed year takes no more entries
    expectError(await c.call('POST', `/api/journal_entry/${(await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: '2024-12-15', your_company_id: company, items: [{ account_id: rent, debit: 1 }, { account_id: role('cash'), credit: 1 }] }), 201)).id}/actions/post`, c.admin), 409, 'PERIOD_CLOSED');

    // 2025's P&L starts at zero: only its own income and expenses (a loss of 499.50)
    const pl2025 = await report('profit_and_loss', { date_from: '2025-01-01', date_to: '2025-12-31' });
    expect([cents(pl2025.totals.total_income), cents(pl2025.totals.total_expense), cents(pl2025.totals.net_profit)]).toEqual([250050, 300000, -49950]);
    const tb2025 = await report('trial_balance', { date_from: '2025-01-01', date_to: '2025-12-31' });
    expect(tb2025.rows.filter((r) => ['income', 'expense'].includes(r.account_type)).map((r) => cents(r.opening_balance))).toEqual(tb2025.rows.filter((r) => ['income', 'expense'].includes(r.account_type)).map(() => 0));

    const second = await c.ok(close({ company, year: 2025 }));
    expect(second).toMatchObject({ net_profit: -499.5, books_closed_until: '2025-12-31' });
    const [loss] = (await entriesOf(c, 'your_company', company)).filter((e) => e.id === second.entry_id);
    expect(byRole(accounts, loss!)).toEqual({ sales: 2500.5, [`#${rent}`]: -3000, retained_earnings: 499.5 });

    // the closed year's P&L still shows its result (the closing entry is left out of it); the trial balance has its
    // income and expense accounts at zero; 2026 starts at zero
    const closed = await report('profit_and_loss', { date_from: '2025-01-01', date_to: '2025-12-31' });
    expect(cents(closed.totals.net_profit)).toBe(-49950);
    const after = await report('trial_balance', { date_from: '2025-01-01', date_to: '2025-12-31' });
    for (const r of after.rows.filter((x) => ['income', 'expense'].includes(x.account_type))) expect(cents(r.closing_balance), r.account_code).toBe(0);
    expect(cents(after.totals.debit)).toBe(cents(after.totals.credit));
    // a P&L line's drill-down (issue 52 §2) asks the trial balance without the closing entry: each account's movement
    // is then the P&L's, sales credited 2,500.50 and rent 3,000.00, not the zero the closing leaves
    const drilled = await report('trial_balance', { date_from: '2025-01-01', date_to: '2025-12-31', without_closing: 'true' });
    const movement = (code: string) => { const r = drilled.rows.find((x) => x.account_code === code)!; return cents(r.closing_balance) - cents(r.opening_balance); };
    const code = (id: number) => String(accounts.get(id)!.code);
    expect([movement(code(role('sales'))), movement(code(rent))]).toEqual([-250050, 300000]);
    // nor the closings' moves to retained earnings
    const kept = drilled.rows.find((r) => r.account_code === code(role('retained_earnings')));
    expect(kept ? [cents(kept.opening_balance), cents(kept.debit), cents(kept.credit)] : [0, 0, 0]).toEqual([0, 0, 0]);
    const pl2026 = await report('profit_and_loss', { date_from: '2026-01-01', date_to: '2026-12-31' });
    expect([cents(pl2026.totals.total_income), cents(pl2026.totals.total_expense), cents(pl2026.totals.net_profit)]).toEqual([0, 0, 0]);

    // the balance sheet balances: retained earnings 600.00 − 499.50 = 100.50, nothing "not yet closed"
    for (const asOf of ['2024-12-31', '2025-06-30', '2025-12-31']) {
      const bs = await report('balance_sheet', { as_of: asOf });
      expect(cents(bs.totals.total_assets), asOf).toBe(cents(bs.totals.total_liabilities_and_equity));
    }
    const bs = await report('balance_sheet', { as_of: '2025-12-31' });
    expect(cents(bs.rows.find((r) => r.dbd_line === 'retained_earnings')?.amount)).toBe(10050);
    expect(cents(bs.rows.find((r) => r.dbd_line === 'current_profit')?.amount ?? 0)).toBe(0);
    // assets: cash 2,500.50 − 400.00 − 3,000.00 and the receivable 1,000.00
    expect(cents(bs.totals.total_assets)).toBe(10050);
  });

  it('refuses a year not ended, a bad body, and a role that may not close the books', async () => {
    const year = Number(new Date().toISOString().slice(0, 4)) + 1;
    const notEnded = await close({ company, year });
    expectError(notEnded, 409, 'YEAR_CLOSE_REFUSED');
    expect(notEnded.json().error.params.reason).toBe('not_ended');
    expectError(await close({ company }), 400, 'VALIDATION_FAILED');
    // reads the books and writes vouchers, but may not change the company's closing date
    const clerk = await c.staff('bookkeeper', { journal_entry: { view: true, edit: true }, your_company: { view: true } });
    expectError(await close({ company, year: 2023 }, clerk.headers), 403, 'FORBIDDEN');
    // the closing journal takes only what closing a year writes: a voucher typed in it is not posted
    const typed = await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: '2026-01-05', your_company_id: company, journal: 'closing', items: [{ account_id: rent, debit: 5 }, { account_id: role('cash'), credit: 5 }] }), 201);
    const refusedPost = await c.call('POST', `/api/journal_entry/${typed.id}/actions/post`, { ...c.admin, 'accept-language': 'th' });
    expectError(refusedPost, 400, 'JOURNAL_LINE_INVALID');
    expect(refusedPost.json().error.params.reason).toBe('closing_journal');
    const other = await c.company();
    expectError(await close({ company: other + 1000, year: 2023 }), 404, 'NOT_FOUND');
  });
});
