/**
 * Issue 50 §4: a general ledger page in its date order computes the running balance over its first
 * `offset + limit` lines only (the lines' index on account, date, entry and line gives them in that order, from the
 * entry's date and company copied onto each line), not over every line of the account. For random accounts, date
 * ranges, companies, pages and orders, the page equals a straightforward computation from the entries and their
 * lines (each line's balance = the opening balance before the range + every earlier line of the range, by the
 * entry's own date and company, not the copies) to the satang, and equals the same page cut from every row computed
 * at once (allRows: the window over every line). Lines written by the journal writer and manual vouchers whose date,
 * company and lines changed while draft, on both dialects.
 * A random seed per run (printed on failure); PROPERTY_SEED=<n> replays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { writeEntry } from '../../server/ledger/journal-writer.ts';
import { dayText } from '../../server/ledger/journal-days.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import { allRows, orderOf, runPage } from '../../server/reports/report-runner.ts';
import { windowPrefixApplies } from '../../server/reports/report-compiler.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import type { ReportDef } from '../../engine/reports/report-types.ts';

type Row = Record<string, any>;
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const dayOf = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
/** Orders a page may ask: the report's own (the running sum's), and others that take the window over every row. */
const SORTS = [undefined, undefined, undefined, 'doc_date,entry_id,line_id', '-doc_date', 'debit,-line_id', 'balance'];

describe.each(testDialects())('a general ledger page computes its balances from its own first lines on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let def: ReportDef;
  const companies: number[] = [];
  const accounts: { id: number; code: string }[] = [];

  /** Every posted line by its entry's own date and company (not the line's copies), in the ledger's order. */
  async function postedLines(): Promise<Row[]> {
    const rows = await t.db.kysely.selectFrom('journal_entry_item as i').innerJoin('journal_entry as e', 'e.id', 'i.journal_entry_id')
      .select(['i.id as line_id', 'e.id as entry_id', 'e.doc_date as doc_date', 'e.your_company_id as company', 'i.account_id as account', 'i.debit as debit', 'i.credit as credit'])
      .where('e.status', '=', 'posted').execute();
    return rows.map((r) => ({ ...r, doc_date: dayText(r.doc_date), debit: Number(r.debit), credit: Number(r.credit), company: Number(r.company), account: Number(r.account), entry_id: Number(r.entry_id), line_id: Number(r.line_id) }))
      .sort((a, b) => (a.doc_date < b.doc_date ? -1 : a.doc_date > b.doc_date ? 1 : a.entry_id - b.entry_id || a.line_id - b.line_id));
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    for (let i = 0; i < 2; i++) companies.push(await c.company());
    def = readReportDir(join(import.meta.dirname, '../../schemas/reports'), t.registry).find((d) => d.name === 'general_ledger')!;
    expect(windowPrefixApplies(def, orderOf(def, undefined))).toBe(true);
    accounts.push(...(await t.db.kysely.selectFrom('account').select(['id', 'code', 'is_group']).orderBy('id').execute())
      .filter((a) => !Number(a.is_group)).slice(0, 4).map((a) => ({ id: Number(a.id), code: String(a.code) })));
    const rnd = fc.sample(fc.array(fc.record({ company: fc.nat(1), day: fc.nat(50), a: fc.nat(3), b: fc.nat(2), amount: fc.integer({ min: 1, max: 99_999_999 }), split: fc.boolean(), voucher: fc.nat(4) }), { minLength: 45, maxLength: 45 }), { seed: SEED, numRuns: 1 })[0]!;
    let source = 0;
    for (const e of rnd) {
      const [x, y] = [accounts[e.a]!.id, accounts[(e.a + 1 + e.b) % 4]!.id];
      const half = Math.floor(e.amount / 2);
      const lines = e.split ? [{ accountId: x, debit: half, credit: 0 }, { accountId: x, debit: e.amount - half, credit: 0 }, { accountId: y, debit: 0, credit: e.amount }]
        : [{ accountId: x, debit: e.amount, credit: 0 }, { accountId: y, debit: 0, credit: e.amount }];
      if (e.voucher) {
        await t.db.kysely.transaction().execute((trx) => writeEntry(trx, t.service, {
          companyId: companies[e.company]!, date: dayOf(e.day), journal: 'general', sourceEntity: 'property_source', sourceId: ++source, sourceDocNo: `PS-${source}`, memo: 'ทดสอบ', lines,
        }));
        continue;
      }
      // a manual voucher made on another day and company, then moved (and its lines written again) while draft, then posted
      const items = lines.map((l) => ({ account_id: l.accountId, debit: l.debit / 100, credit: l.credit / 100 }));
      const draft = await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: dayOf(e.day + 30), your_company_id: companies[1 - e.company], journal: 'general', memo: 'ร่าง', items: items.slice(0, 1) }), 201);
      await c.ok(c.call('PATCH', `/api/journal_entry/${draft.id}`, c.admin, { doc_date: dayOf(e.day), your_company_id: companies[e.company], items }));
      await c.ok(c.action('journal_entry', draft.id, 'post'));
    }
    // a draft counts nowhere
    await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: dayOf(10), your_company_id: companies[0], journal: 'general', memo: 'ร่าง',
      items: [{ account_id: accounts[0]!.id, debit: 5, credit: 0 }, { account_id: accounts[1]!.id, debit: 0, credit: 5 }] }), 201);
  });
  afterAll(async () => t?.close());

  it('every line carries its entry\'s date and company', async () => {
    const rows = await t.db.kysely.selectFrom('journal_entry_item as i').innerJoin('journal_entry as e', 'e.id', 'i.journal_entry_id')
      .select(['i.doc_date as line_date', 'e.doc_date as entry_date', 'i.your_company_id as line_company', 'e.your_company_id as entry_company']).execute();
    expect(rows.length).toBeGreaterThan(90);
    for (const r of rows) expect([dayText(r.line_date), Number(r.line_company)]).toEqual([dayText(r.entry_date), Number(r.entry_company)]);
  });

  it('gives each page\'s rows and balances as computed from the lines', async () => {
    const lines = await postedLines();
    let last = '';
    try {
      await fc.assert(fc.asyncProperty(
        fc.record({ account: fc.nat(accounts.length), from: fc.nat(60), len: fc.nat(60), company: fc.nat(2), limit: fc.integer({ min: 1, max: 8 }), offset: fc.nat(40), sort: fc.nat(SORTS.length - 1) }),
        async (q) => {
          // one code that is no account: no rows at all
          const account = accounts[q.account];
          const company = q.company < 2 ? companies[q.company]! : null;
          const params = { account: account?.code ?? 'NO-SUCH', date_from: dayOf(q.from), date_to: dayOf(q.from + q.len), company };
          const sort = SORTS[q.sort];
          last = JSON.stringify({ ...params, limit: q.limit, offset: q.offset, sort });
          const got = await runPage(t.service, def, params, systemContext, { limit: q.limit, offset: q.offset, sort });
          // the same page cut from every row, each balance from the window over every line
          const every: Row[] = [];
          for await (const r of allRows(t.service, def, params, systemContext, 10_000, sort)) every.push(r);
          expect(got.rows).toEqual(every.slice(q.offset, q.offset + q.limit));
          // the straightforward computation, in the ledger's order (satang): opening row, then each line's running balance
          if (sort && sort !== 'doc_date,entry_id,line_id') return;
          if (!account) { expect(got.rows).toEqual([]); return; }
          const mine = lines.filter((l) => l.account === account.id && (company === null || l.company === company));
          let balance = mine.filter((l) => l.doc_date < params.date_from).reduce((s, l) => s + l.debit - l.credit, 0);
          const want: Row[] = [{ entry_id: 0, line_id: 0, doc_date: params.date_from, debit: 0, credit: 0, balance }];
          for (const l of mine.filter((x) => x.doc_date >= params.date_from && x.doc_date <= params.date_to)) {
            balance += l.debit - l.credit;
            want.push({ entry_id: l.entry_id, line_id: l.line_id, doc_date: l.doc_date, debit: l.debit, credit: l.credit, balance });
          }
          const satang = (v: unknown) => Math.round(Number(v) * 100);
          expect(got.rows.map((r) => ({ entry_id: r.entry_id, line_id: r.line_id, doc_date: r.doc_date, debit: satang(r.debit), credit: satang(r.credit), balance: satang(r.balance) })))
            .toEqual(want.slice(q.offset, q.offset + q.limit));
          expect(got.total_count).toBe(want.length);
        }), { numRuns: 40, endOnFailure: true, seed: SEED });
    } catch (err) {
      throw new Error(`general ledger page failed with PROPERTY_SEED=${SEED} at ${last}: ${(err as Error).message}`);
    }
  }, 300_000);
});
