/**
 * Issue 50 §2 "old databases" and §5 on the demo business: the demo's year of documents is in the books once
 * loaded (posted live, and after a restart nothing more is written); every entry balances and each company's
 * inventory account equals its stock value.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDemoTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedFinanceHistory } from '../../seed/demo-finance.ts';
import { fillMissingEntries } from '../../server/ledger/ledger-backfill.ts';

describe.each(testDialects())('the demo business in the books on %s', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    await seedFinanceHistory(t.service);
  }, 180_000);
  afterAll(async () => t?.close());

  it('has an entry for every posted document, each balanced, and inventory equal to stock value', async () => {
    const k = t.db.kysely;
    // everything was posted through the engine: a start finds nothing missing
    expect(await fillMissingEntries(t.service)).toBe(0);
    const bySource = await k.selectFrom('journal_entry').select(['source_entity', sql<number>`count(*)`.as('n')]).where('reverses_id', 'is', null).groupBy('source_entity').execute();
    const counts = Object.fromEntries(bySource.map((r) => [String(r.source_entity), Number(r.n)]));
    for (const e of ['tax_invoice', 'receipt', 'goods_receipt', 'delivery_order']) expect(counts[e] ?? 0, `${e} entries ${JSON.stringify(counts)}`).toBeGreaterThan(0);
    const unbalanced = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id')
      .select('e.doc_no').where('e.status', '=', 'posted').groupBy('e.doc_no').having(sql`sum(l.debit) - sum(l.credit)`, '!=', 0).execute();
    expect(unbalanced).toEqual([]);
    const companies = await k.selectFrom('your_company').select('id').execute();
    for (const { id } of companies) {
      const books = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id').innerJoin('account as a', 'a.id', 'l.account_id')
        .select(sql<number>`coalesce(sum(l.debit) - sum(l.credit), 0)`.as('v')).where('e.status', '=', 'posted').where('a.role', '=', 'inventory').where('e.your_company_id', '=', id).executeTakeFirst();
      const stock = await k.selectFrom('stock_balance_total as b').innerJoin('inventory as i', 'i.id', 'b.inventory_id')
        .select(sql<number>`coalesce(sum(b.value), 0)`.as('v')).where('i.your_company_id', '=', id).executeTakeFirst();
      expect(Number(books?.v), `company ${id}: inventory account vs stock value (satang)`).toBe(Number(stock?.v));
    }
  });
});
