/**
 * Issue 50 §4: the general ledger takes a page's count and debit and credit totals from the day summary
 * (`countFrom`: journal_account_day) instead of every line of the account, and a page takes the first lines in date
 * order before the opening row is put with them. For random accounts, date ranges, companies and pages, the answer
 * equals the same report computed from the lines (the file without `countFrom`, every row sorted): count and totals
 * to the satang, and the page's rows. A user limited to one company gets the figures of that company's lines.
 * A random seed per run (printed on failure); PROPERTY_SEED=<n> replays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { writeEntry } from '../../server/ledger/journal-writer.ts';
import { readReportDir } from '../../server/reports/report-catalogue.ts';
import { allRows, runPage } from '../../server/reports/report-runner.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import type { ReportDef } from '../../engine/reports/report-types.ts';

type Row = Record<string, any>;
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const dayOf = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

describe.each(testDialects())('the general ledger counted from the day summary on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let def: ReportDef;
  let fromLines: ReportDef;
  const companies: number[] = [];
  const codes: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    for (let i = 0; i < 2; i++) companies.push(await c.company());
    def = readReportDir(join(import.meta.dirname, '../../schemas/reports'), t.registry).find((d) => d.name === 'general_ledger')!;
    expect(def.countFrom).toBeDefined();
    const { countFrom: _, ...rest } = def;
    fromLines = rest;
    const accounts = (await t.db.kysely.selectFrom('account').select(['id', 'code', 'is_group']).orderBy('id').execute())
      .filter((a) => !Number(a.is_group)).slice(0, 5);
    codes.push(...accounts.map((a) => String(a.code)));
    // entries on a few days of 2025 for both companies: several lines of one account on a day, some days without any
    const rnd = fc.sample(fc.array(fc.record({ company: fc.nat(1), day: fc.nat(60), a: fc.nat(4), b: fc.nat(4), amount: fc.integer({ min: 1, max: 99_999_999 }), split: fc.boolean() }), { minLength: 40, maxLength: 40 }), { seed: SEED, numRuns: 1 })[0]!;
    let source = 0;
    for (const e of rnd) {
      const [x, y] = [accounts[e.a]!.id, accounts[(e.a + 1 + (e.b % 4)) % 5]!.id];
      const half = Math.floor(e.amount / 2);
      const lines = e.split ? [{ accountId: x, debit: half, credit: 0 }, { accountId: x, debit: e.amount - half, credit: 0 }, { accountId: y, debit: 0, credit: e.amount }]
        : [{ accountId: x, debit: e.amount, credit: 0 }, { accountId: y, debit: 0, credit: e.amount }];
      await t.db.kysely.transaction().execute((trx) => writeEntry(trx, t.service, {
        companyId: companies[e.company]!, date: dayOf(e.day), journal: 'general', sourceEntity: 'property_source', sourceId: ++source, sourceDocNo: `PS-${source}`, memo: 'ทดสอบ', lines,
      }));
    }
    // a draft voucher counts in neither
    await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: dayOf(10), your_company_id: companies[0], journal: 'general', memo: 'ร่าง',
      items: [{ account_id: accounts[0]!.id, debit: 5, credit: 0 }, { account_id: accounts[1]!.id, debit: 0, credit: 5 }] }), 201);
  });
  afterAll(async () => t?.close());

  it('gives the count, totals and page of the lines for random ranges', async () => {
    let last = '';
    try {
      await fc.assert(fc.asyncProperty(
        fc.record({ code: fc.nat(codes.length), from: fc.nat(70), len: fc.nat(70), company: fc.nat(2), limit: fc.integer({ min: 1, max: 6 }), offset: fc.nat(8) }),
        async (q) => {
          // one code that is no account: no rows at all
          const params = { account: codes[q.code] ?? 'NO-SUCH', date_from: dayOf(q.from), date_to: dayOf(q.from + q.len), company: q.company < 2 ? companies[q.company]! : null };
          last = JSON.stringify({ ...params, limit: q.limit, offset: q.offset });
          const page = { limit: q.limit, offset: q.offset };
          const got = await runPage(t.service, def, params, systemContext, page);
          const want = await runPage(t.service, fromLines, params, systemContext, { limit: 1, offset: 0 });
          expect([got.total_count, got.totals]).toEqual([want.total_count, want.totals]);
          const every: Row[] = [];
          for await (const r of allRows(t.service, fromLines, params, systemContext, 10_000)) every.push(r);
          expect(every).toHaveLength(want.total_count);
          expect(got.rows).toEqual(every.slice(q.offset, q.offset + q.limit));
        }), { numRuns: 25, endOnFailure: true, seed: SEED });
    } catch (err) {
      throw new Error(`general ledger from the summary failed with PROPERTY_SEED=${SEED} at ${last}: ${(err as Error).message}`);
    }
  }, 300_000);

  it('a user limited to one company gets that company\'s lines counted and summed', async () => {
    const role = await c.role('บัญชีบริษัทเดียว', { general_ledger: { view: true } });
    const type = await c.userType('เฉพาะบริษัทเดียว', role, { company: true });
    await c.user(`glcount${dialect}`, { role_id: role, user_type_id: type, branch_company: [companies[1]] });
    const as = await c.signIn(`glcount${dialect}`);
    for (const code of codes) {
      const res = await c.call('GET', `/api/report/general_ledger?account=${code}&date_from=2025-01-01&date_to=2025-12-31&limit=2`, as);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      const want = await runPage(t.service, fromLines, { account: code, date_from: '2025-01-01', date_to: '2025-12-31', company: companies[1]! }, systemContext, { limit: 2, offset: 0 });
      expect([body.meta.total_count, body.data.totals, body.data.rows], `${code} (seed ${SEED})`).toEqual([want.total_count, want.totals, want.rows]);
    }
  });
});
