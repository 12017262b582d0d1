/**
 * The benchmark's journal lines (seed/bulk-journal.ts) are written around posting, so check that they are what
 * the ledger reports need: as many lines as asked, every entry balanced, readable through the generic API, and a
 * trial balance over them that balances, with receivable and payable lines naming their parties.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { bulkJournal } from '../../seed/bulk-journal.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { daySummaryMismatches, entryCopyMismatches } from '../support/ledger-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('bulkJournal on %s', (dialect) => {
  let t: TestApp;
  let made = { entries: 0, lines: 0 };
  beforeAll(async () => {
    t = await createTestApp(dialect);
    made = await bulkJournal(t.db, t.registry, { lines: 1500 });
  });
  afterAll(async () => { await t?.close(); });

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: any; meta?: { total_count?: number } };
  };

  it('writes at least the lines asked, in balanced posted entries', async () => {
    expect(made.lines).toBeGreaterThanOrEqual(1500);
    expect(made.lines).toBeLessThan(1503);
    const lines = await get('/api/journal_entry_item?limit=1&meta=total_count');
    expect(lines.meta?.total_count).toBe(made.lines);
    const unbalanced = await sql<{ n: number }>`select count(*) as n from (select journal_entry_id from journal_entry_item group by journal_entry_id having sum(debit) <> sum(credit)) u`.execute(t.db.kysely);
    expect(Number(unbalanced.rows[0]!.n)).toBe(0);
    const entry = (await get('/api/journal_entry?limit=1&sort=-id')).data[0] as Row;
    expect(entry.status).toBe('posted');
    expect((await get(`/api/journal_entry/${entry.id}`)).data.items.length).toBeGreaterThanOrEqual(2);
    // the lines bypass the journal writer: the day summaries the reports read are made again from them
    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
    // and each line carries its entry's date and company, as the journal writer writes them (the general ledger's order)
    expect(await entryCopyMismatches(t.db.kysely)).toEqual([]);
  });

  it('gives the ledger reports a balanced trial balance and parties on the receivable and payable lines', async () => {
    const tb = (await get('/api/report/trial_balance?date_from=2000-01-01&date_to=2030-12-31&limit=500')).data as { rows: Row[]; totals: Row };
    expect(tb.rows.length).toBeGreaterThan(3);
    expect(Math.round(tb.totals.debit * 100)).toBe(Math.round(tb.totals.credit * 100));
    const ar = (await get('/api/report/receivable_ledger?date_from=2000-01-01&date_to=2030-12-31&limit=500')).data as { rows: Row[] };
    expect(ar.rows.length).toBeGreaterThan(1);
    expect(ar.rows.every((r) => r.customer_id !== null)).toBe(true);
    // a new entry after the seeded ones takes a fresh id (PostgreSQL's identity was moved past the given ids)
    const account = (await get('/api/account?limit=1&filter=' + encodeURIComponent(JSON.stringify({ role: { _eq: 'cash' } })))).data[0] as Row;
    const res = await t.app.inject({ method: 'POST', url: '/api/journal_entry', headers: t.headers, payload: { doc_date: '2026-01-05', journal: 'general', your_company_id: (await get('/api/your_company?limit=1')).data[0].id,
      items: [{ account_id: account.id, debit: 1, credit: 0 }, { account_id: account.id, debit: 0, credit: 1 }] } });
    expect(res.statusCode, res.body).toBe(201);
  });
});
