/**
 * Issue 49: a posting's journal entry is written as the posting's last statements, while the posting holds the stock
 * balance rows others wait for: on PostgreSQL the entry, its lines, its day summaries and its number are one
 * statement (journal-writer.ts), on SQLite one statement each with the number last. Either way the entry is numbered
 * in its company's series for the month, moves past a number an entry already has (imported with its own), and its
 * day summaries agree with its lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { byRole, daySummaryMismatches, entriesOf, accountsById } from '../support/ledger-fixtures.ts';

type Row = Record<string, any>;
const withSeq = (no: string, seq: number) => no.replace(/\d{5}$/, String(seq).padStart(5, '0'));

describe.each(testDialects())('a posting\'s entry and its number on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let inv: number;
  let product: number;
  let supplier: number;
  let accounts: Map<number, Row>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    inv = await c.inventory(company);
    product = await c.product();
    supplier = await c.supplier();
    accounts = await accountsById(c);
  });
  afterAll(async () => t?.close());

  const received = async (qty: number, price: number): Promise<Row> => {
    const gr = await c.receive(inv, [{ product_id: product, qty, price }], { supplier_id: supplier });
    const entries = await entriesOf(c, 'goods_receipt', gr.id);
    expect(entries).toHaveLength(1);
    return entries[0]!;
  };

  it('numbers entries one after another, past a number an imported entry holds, with lines and day rows as written', async () => {
    const first = await received(2, 10);
    expect(byRole(accounts, first)).toEqual({ inventory: 20, goods_received_not_invoiced: -20 });
    expect(first.items.map((l: Row) => l.line_no)).toEqual([1, 2]);
    const seq = Number(/(\d{5})$/.exec(first.doc_no)?.[1]);
    expect(first.doc_no).toMatch(/JV2026\d\d-\d{5}$/);

    const second = await received(1, 7.5);
    expect(second.doc_no).toBe(withSeq(first.doc_no, seq + 1));
    expect(byRole(accounts, second)).toEqual({ inventory: 7.5, goods_received_not_invoiced: -7.5 });

    // a draft voucher given, by an import, the number the series would give next
    const imported = await c.ok(c.call('POST', '/api/journal_entry', c.admin, {
      doc_date: '2026-11-20', your_company_id: company, memo: 'นำเข้าจากระบบเดิม',
      items: [{ account_id: [...accounts.values()].find((a) => a.role === 'cash')!.id, debit: 1 }, { account_id: [...accounts.values()].find((a) => a.role === 'sales')!.id, credit: 1 }],
    }), 201);
    await t.db.kysely.updateTable('journal_entry').set({ doc_no: withSeq(first.doc_no, seq + 2) }).where('id', '=', imported.id).execute();

    const third = await received(3, 1.25);
    expect(third.doc_no).toBe(withSeq(first.doc_no, seq + 3));
    expect(byRole(accounts, third)).toEqual({ inventory: 3.75, goods_received_not_invoiced: -3.75 });
    // and the series goes on from there
    const fourth = await received(1, 1);
    expect(fourth.doc_no).toBe(withSeq(first.doc_no, seq + 4));

    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
  });

  it('receipts posted in parallel over overlapping products all post, their entries numbered without a gap or a repeat', async () => {
    // on PostgreSQL each entry rides in its posting's balance statement: its counter is locked there too, after every balance
    // row of the statement (not between them, which deadlocked postings whose products overlap in another order)
    const products: number[] = [];
    for (let i = 0; i < 6; i++) products.push(await c.product());
    const drafts: Row[] = [];
    for (let i = 0; i < 24; i++) {
      const window = [0, 1, 2].map((k) => products[(i + k) % products.length]!);
      drafts.push(await c.draft('goods_receipt', { inventory_id: inv, supplier_id: supplier }, (i % 2 ? window.reverse() : window).map((p) => ({ product_id: p, qty: 1, price: 2 }))));
    }
    const results = await Promise.all(drafts.map((d) => c.action('goods_receipt', d.id, 'approve')));
    expect(results.map((r) => r.statusCode)).toEqual(Array(24).fill(200));
    const entries = (await Promise.all(drafts.map((d) => entriesOf(c, 'goods_receipt', d.id)))).flat();
    expect(entries.map((e) => byRole(accounts, e))).toEqual(Array(24).fill({ inventory: 6, goods_received_not_invoiced: -6 }));
    const seqs = entries.map((e) => Number(/(\d{5})$/.exec(e.doc_no)?.[1])).sort((a, b) => a - b);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
  });

  it('transfers between two companies both ways, of different products, in parallel: all post, each with an entry in both books', async () => {
    // each transfer writes an entry in each company's books, so it locks both companies' counters: in company order
    // whichever way the goods go (the sender's first deadlocked a transfer each way over different products)
    const sister = await c.company();
    const theirs = await c.inventory(sister);
    const ours: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < 8; i++) { ours.push(await c.product()); others.push(await c.product()); }
    await c.receive(inv, ours.map((p) => ({ product_id: p, qty: 5, price: 3 })), { supplier_id: supplier });
    await c.receive(theirs, others.map((p) => ({ product_id: p, qty: 5, price: 3 })), { supplier_id: supplier });
    const drafts: Row[] = [];
    for (let i = 0; i < 16; i++) {
      const [from, to, p] = i % 2 ? [inv, theirs, ours[i >> 1]!] : [theirs, inv, others[i >> 1]!];
      drafts.push(await c.draft('internal_product_transfer', { from_inventory_id: from, to_inventory_id: to }, [{ product_id: p, qty: 1 }]));
    }
    const results = await Promise.all(drafts.map((d) => c.action('internal_product_transfer', d.id, 'approve')));
    expect(results.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    for (const d of drafts) expect((await entriesOf(c, 'internal_product_transfer', d.id)).map((e) => e.your_company_id).sort()).toEqual([company, sister].sort());
    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
    // and cancelled in parallel: each reversal in both books too
    const cancels = await Promise.all(drafts.map((d) => c.action('internal_product_transfer', d.id, 'cancel')));
    expect(cancels.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    for (const d of drafts) expect((await entriesOf(c, 'internal_product_transfer', d.id))).toHaveLength(4);
    expect(await daySummaryMismatches(t.db.kysely)).toEqual([]);
  });
});
