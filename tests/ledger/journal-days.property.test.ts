/**
 * Issue 50 §4: the ledger's day summaries (journal_account_day, journal_party_day; server/ledger/journal-days.ts)
 * the ledger reports read equal the posted lines summed, to the satang, after any sequence of entries written by
 * the journal writer (two companies, days, parties), reversals of them, manual vouchers posted or left as drafts or
 * cancelled, and writes rolled back. Then: a database whose summaries miss lines gets them at start, once.
 * A random seed per run (printed on failure); PROPERTY_SEED=<n> replays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { daySummaryMismatches, entryCopyMismatches } from '../support/ledger-fixtures.ts';
import { journalOf, POSTED, reverseEntriesOf, writeEntry, type EntryLine } from '../../server/ledger/journal-writer.ts';
import { ACCOUNT_DAY, ensureJournalDays, journalTables, PARTY_DAY } from '../../server/ledger/journal-days.ts';
import { fillEntryCopies } from '../../server/ledger/entry-copy.ts';

type Row = Record<string, any>;
interface LineSpec { account: number; amount: number; debit: boolean; party: number }
type Op =
  | { k: 'entry' | 'voucher' | 'rolled_back'; company: number; day: number; lines: LineSpec[]; post: boolean }
  | { k: 'reverse'; pick: number; day: number };

const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const line: fc.Arbitrary<LineSpec> = fc.record({ account: fc.nat(), amount: fc.integer({ min: 1, max: 99_999_999 }), debit: fc.boolean(), party: fc.integer({ min: 0, max: 4 }) });
const lines = fc.array(line, { minLength: 1, maxLength: 4 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('entry' as const), company: fc.nat(1), day: fc.nat(40), lines, post: fc.constant(true) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('voucher' as const), company: fc.nat(1), day: fc.nat(40), lines, post: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('rolled_back' as const), company: fc.nat(1), day: fc.nat(40), lines, post: fc.constant(true) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('reverse' as const), pick: fc.nat(), day: fc.nat(40) }) },
);
const dayOf = (n: number) => new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);

describe.each(testDialects())('the ledger day summaries on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  const companies: number[] = [];
  const customers: number[] = [];
  const suppliers: number[] = [];
  let accounts: number[] = [];
  const sources: number[] = [];
  let source = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    for (let i = 0; i < 2; i++) {
      companies.push(await c.company());
      customers.push(await c.make('customer', { code: c.next('C'), name_th: 'ลูกค้าทดสอบ', customer_type: 'individual' }));
      suppliers.push(await c.supplier());
    }
    // postable accounts of the seeded chart (booleans are stored per dialect: filtered here)
    accounts = (await t.db.kysely.selectFrom('account').select(['id', 'is_group']).orderBy('id').execute()).filter((a) => !Number(a.is_group)).map((a) => Number(a.id)).slice(0, 12);
  });
  afterAll(async () => t?.close());

  /** Balanced lines: the specs, and one line on the first account that balances them (party 1-2 a customer, 3-4 a supplier). */
  function entryLines(specs: LineSpec[]): EntryLine[] {
    const out: EntryLine[] = specs.map((s) => ({
      accountId: accounts[s.account % accounts.length]!, debit: s.debit ? s.amount : 0, credit: s.debit ? 0 : s.amount,
      customerId: s.party === 1 || s.party === 2 ? customers[s.party - 1]! : null, supplierId: s.party >= 3 ? suppliers[s.party - 3]! : null,
    }));
    const diff = out.reduce((sum, l) => sum + l.debit - l.credit, 0);
    if (diff) out.push({ accountId: accounts[0]!, debit: diff < 0 ? -diff : 0, credit: diff > 0 ? diff : 0 });
    return out;
  }

  async function run(op: Op): Promise<void> {
    const service = t.service;
    if (op.k === 'reverse') {
      if (!sources.length) return;
      const id = sources[op.pick % sources.length]!;
      await t.db.kysely.transaction().execute((trx) => reverseEntriesOf(trx, service, 'property_source', id, dayOf(op.day), 'กลับรายการ'));
      return;
    }
    const ls = entryLines(op.lines);
    const input = { companyId: companies[op.company]!, date: dayOf(op.day), journal: 'general', sourceEntity: 'property_source', sourceId: ++source, sourceDocNo: `PS-${source}`, memo: 'ทดสอบ', lines: ls };
    if (op.k === 'entry') {
      await t.db.kysely.transaction().execute((trx) => writeEntry(trx, service, input));
      sources.push(source);
    } else if (op.k === 'rolled_back') {
      // the entry and its summary rows go together: a write that fails after it leaves neither
      await expect(t.db.kysely.transaction().execute(async (trx) => { await writeEntry(trx, service, input); throw new Error('rolled back'); })).rejects.toThrow('rolled back');
    } else {
      const baht = (n: number) => n / 100;
      // made on another day and for the other company, then moved to its own while draft: its lines' copies follow
      const made = await c.ok(c.call('POST', '/api/journal_entry', c.admin, {
        doc_date: dayOf(op.day + 7), your_company_id: companies[1 - op.company]!, journal: 'general', memo: 'ใบสำคัญทดสอบ',
        items: ls.map((l) => ({ account_id: l.accountId, debit: baht(l.debit), credit: baht(l.credit), customer_id: l.customerId ?? null, supplier_id: l.supplierId ?? null })),
      }), 201);
      const moved = await c.ok(c.call('PATCH', `/api/journal_entry/${made.id}`, c.admin, { doc_date: input.date, your_company_id: input.companyId }));
      for (const l of moved.items as Row[]) expect([l.doc_date, l.your_company_id]).toEqual([input.date, input.companyId]);
      await c.ok(c.action('journal_entry', made.id, op.post ? 'post' : 'cancel'));
    }
  }

  it('equal the posted lines summed after random entries, reversals, vouchers and rollbacks', async () => {
    let last: unknown = null;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: 10 }), async (ops) => {
          try {
            for (const op of ops) await run(op);
            // and every line carries its entry's date and company (entry-copy.ts), drafts too
            const wrong = [...await daySummaryMismatches(t.db.kysely), ...await entryCopyMismatches(t.db.kysely)];
            if (wrong.length) throw new Error(`${wrong.slice(0, 5).join('; ')} after ${JSON.stringify(ops)}`);
          } catch (err) {
            last = err;
            throw err;
          }
        }),
        // the state is shared between runs, so shrinking would replay on top of it: keep the first counterexample
        { numRuns: 12, endOnFailure: true, seed: SEED },
      );
    } catch (err) {
      throw new Error(`day summaries failed with PROPERTY_SEED=${SEED}: ${(err as Error).message}\n${(last as Error | null)?.message ?? ''}`);
    }
    const counted = await t.db.kysely.selectFrom(ACCOUNT_DAY).select((eb) => eb.fn.sum<number>('line_count').as('n')).executeTakeFirst();
    expect(Number(counted?.n), `lines summed (seed ${SEED})`).toBeGreaterThan(0);
  }, 300_000);

  it('are filled at start when they miss lines, and a second start leaves them', async () => {
    const tables = journalTables(t.registry, journalOf(t.registry), POSTED);
    // agreeing with the lines: nothing to do
    expect(await ensureJournalDays(t.db, tables)).toBe(false);
    // a database from before the summaries (or a restore that brought other lines)
    await t.db.kysely.deleteFrom(ACCOUNT_DAY).execute();
    await t.db.kysely.deleteFrom(PARTY_DAY).where('account_id', '=', accounts[0]!).execute();
    expect(await ensureJournalDays(t.db, tables)).toBe(true);
    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
    expect(await ensureJournalDays(t.db, tables)).toBe(false);
  });

  it('journal lines from before they carried their entry\'s date and company get them at start, once', async () => {
    const tables = journalTables(t.registry, journalOf(t.registry), POSTED);
    expect(await fillEntryCopies(t.db, tables)).toBe(0);
    // a database whose columns the schema sync has just added: empty on every line (or on some, after a restore)
    const all = Number((await t.db.kysely.selectFrom('journal_entry_item').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst())?.n);
    await t.db.kysely.updateTable('journal_entry_item').set({ doc_date: null, your_company_id: null }).execute();
    // in ranges of 7 line ids here (20,000 at start), so several statements fill them
    expect(await fillEntryCopies(t.db, tables, 7)).toBe(all);
    expect(await entryCopyMismatches(t.db.kysely)).toEqual([]);
    await t.db.kysely.updateTable('journal_entry_item').set({ your_company_id: null }).where('account_id', '=', accounts[0]!).execute();
    expect(await fillEntryCopies(t.db, tables)).toBeGreaterThan(0);
    expect(await entryCopyMismatches(t.db.kysely)).toEqual([]);
    expect(await fillEntryCopies(t.db, tables)).toBe(0);
  });

  it('a client cannot write a line\'s copies: 400 UNKNOWN_FIELD, as for any read-only field of a line', async () => {
    const res = await c.call('POST', '/api/journal_entry', c.admin, { doc_date: dayOf(1), your_company_id: companies[0], journal: 'general',
      items: [{ account_id: accounts[0], debit: 1, doc_date: dayOf(2) }, { account_id: accounts[1], credit: 1, your_company_id: companies[1] }] });
    // a line's read-only fields are not in its request schema, as for every lines entity: both named
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('UNKNOWN_FIELD');
    expect(JSON.stringify(res.json().error.details.fields)).toMatch(/doc_date[\s\S]*your_company_id/);
  });
});
