/**
 * What a document write costs in statements does not grow with its lines
 * (issue 14's load mix posts documents): link checks are one query per
 * linked entity, new lines one INSERT, and a posting reads the site settings
 * once. Counted, not timed: the same figures on any machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultQueryExecutor } from 'kysely';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

// every executor (the pool's and each transaction's) is a DefaultQueryExecutor: counting there sees each statement once
const proto = Object.getPrototypeOf(DefaultQueryExecutor.prototype) as { executeQuery: (...a: unknown[]) => Promise<unknown> };
const original = proto.executeQuery;
// only the statements of the work measured: the server's own timers (override and alert polls) run queries too
const recording = new AsyncLocalStorage<string[]>();
proto.executeQuery = function (this: unknown, ...a: unknown[]) {
  recording.getStore()?.push(String((a[0] as { sql: string }).sql));
  return original.apply(this, a);
};

afterAll(() => { proto.executeQuery = original; });

async function statements(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  await recording.run(seen, work);
  expect(seen.length).toBeGreaterThan(0);
  return seen;
}

describe.each(testDialects())('statements of a document write on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let mine: number;
  let other: number;
  const products: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const company = await c.company();
    mine = await c.inventory(company);
    other = await c.inventory(company);
    for (let i = 0; i < 20; i++) products.push(await c.product());
    await c.posted('goods_receipt', { inventory_id: mine, doc_date: '2026-11-20' }, products.map((p) => ({ product_id: p, qty: 100, price: 5 })));
  });
  afterAll(async () => t?.close());

  const draft = (lines: number) => c.draft('goods_receipt', { inventory_id: mine, doc_date: '2026-11-21' }, products.slice(0, lines).map((p: number) => ({ product_id: p, qty: 1, price: 5 })));
  const transfer = (lines: number) => c.draft('internal_product_transfer', { from_inventory_id: mine, to_inventory_id: other, doc_date: '2026-11-21' }, products.slice(0, lines).map((p: number) => ({ product_id: p, qty: 1 })));

  it('a 20-line draft runs as many statements as a 2-line one: one link query per entity, one INSERT of lines', async () => {
    let small: Row = {};
    const two = await statements(async () => { small = await draft(2); });
    let big: Row = {};
    const twenty = await statements(async () => { big = await draft(20); });
    expect(big.items).toHaveLength(20);
    expect(big.items.map((l: Row) => [l.line_no, l.product_id])).toEqual(products.map((p, i) => [i + 1, p]));
    expect(small.items).toHaveLength(2);
    expect(twenty.length).toBe(two.length);
    expect(twenty.filter((s) => /^insert into "goods_receipt_item"/.test(s))).toHaveLength(1);
    // one for the link check, one for the lines' fills (unit from the product: issue 38 §3)
    expect(twenty.filter((s) => /from "product"/.test(s))).toHaveLength(2);
    // a new document has no lines to compare with
    expect(twenty.filter((s) => /^select "id" from "goods_receipt_item"/.test(s))).toHaveLength(0);
  });

  it('still names each line whose link is wrong, and the header\'s, and writes nothing', async () => {
    const before = Number((await t.db.kysely.selectFrom('goods_receipt').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const res = await c.call('POST', '/api/goods_receipt', c.admin, {
      inventory_id: 999999, doc_date: '2026-11-21',
      items: [{ product_id: products[0], qty: 1 }, { product_id: 888888, qty: 1 }, { product_id: products[1], qty: 1 }, { product_id: 777777, qty: 1 }],
    });
    expectError(res, 400, 'VALIDATION_FAILED');
    const fields = res.json().error.details.fields as { field: string; message: string }[];
    expect(fields.map((f) => f.field)).toEqual(['inventory_id', 'items.1.product_id', 'items.3.product_id']);
    expect(fields.map((f) => f.message)).toEqual([
      'points to an Inventory that does not exist or that you cannot see (id 999999)',
      'points to a Product that does not exist or that you cannot see (id 888888)',
      'points to a Product that does not exist or that you cannot see (id 777777)',
    ]);
    const after = Number((await t.db.kysely.selectFrom('goods_receipt').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    expect(after).toBe(before);
  });

  it('a line that keeps its id is updated in place next to new ones, in order', async () => {
    const made = await draft(3);
    const res = await c.call('PATCH', `/api/goods_receipt/${made.id}`, c.admin, {
      items: [{ product_id: products[5], qty: 2 }, { id: made.items[1].id, product_id: products[1], qty: 7 }, { product_id: products[6], qty: 3 }],
    });
    const saved = await c.ok(Promise.resolve(res));
    expect(saved.items.map((l: Row) => [l.line_no, l.product_id, l.qty])).toEqual([[1, products[5], 2], [2, products[1], 7], [3, products[6], 3]]);
    expect(saved.items[1].id).toBe(made.items[1].id);
  });

  it('posting reads the site settings once, and a changed switch counts at the next posting', async () => {
    // a receipt's rules ask for three switches (lots and expiry, automatic scanning, negative stock)
    const made = await draft(3);
    const posting = await statements(() => c.ok(c.action('goods_receipt', made.id, 'approve')));
    expect(posting.filter((s) => /from "setting_site"/.test(s))).toHaveLength(1);
    const moved = await transfer(3);
    const transferPosting = await statements(() => c.ok(c.action('internal_product_transfer', moved.id, 'approve')));
    expect(transferPosting.filter((s) => /from "setting_site"/.test(s))).toHaveLength(1);
    // more than is on hand: refused, until the site allows negative stock
    const tooMuch = await c.draft('internal_product_transfer', { from_inventory_id: mine, to_inventory_id: other, doc_date: '2026-11-21' }, [{ product_id: products[19]!, qty: 1000 }]);
    expectError(await c.action('internal_product_transfer', tooMuch.id, 'approve'), 409, 'INSUFFICIENT_STOCK');
    // refused at the transaction's last step: the status, the audit row and the rest are rolled back with it
    expect((await c.ok(c.call('GET', `/api/internal_product_transfer/${tooMuch.id}`, c.admin))).status).toBe('draft');
    const audited = await t.db.kysely.selectFrom('system_log').select('id').where('entity', '=', 'internal_product_transfer').where('record_id', '=', tooMuch.id).where('action', '!=', 'create').execute();
    expect(audited).toEqual([]);
    await c.settings({ is_allow_negative_stock: true });
    await c.ok(c.action('internal_product_transfer', tooMuch.id, 'approve'));
    await c.settings({ is_allow_negative_stock: false });
  });

  it('a posting reads its document once: its answer is that read with the new status and stamp, as stored', async () => {
    const made = await draft(3);
    let answer: Row = {};
    const run = await statements(async () => { answer = await c.ok(c.action('goods_receipt', made.id, 'approve')); });
    // no listener of a receipt's posting writes the receipt itself (ActionEvent.recordWritten), so the answer is not read
    // again, and the general ledger plans its entry from the same read (its writes go with the stock statements' last, or after them)
    const ledgerAt = run.findIndex((s) => /insert into "journal_entry" \(/.test(s));
    const firstBalance = run.findIndex((s) => /"stock_balance"/.test(s));
    expect(ledgerAt).toBeGreaterThanOrEqual(firstBalance);
    expect(run.filter((s) => /^select .* from "goods_receipt" as "t"/.test(s))).toHaveLength(1);
    expect(run.filter((s) => /^select \* from "goods_receipt_item"/.test(s))).toHaveLength(1);
    const stored = await c.ok(c.call('GET', `/api/goods_receipt/${made.id}`, c.admin));
    expect(answer.status).toBe('approved');
    expect(answer).toEqual(stored);
  });

  it('a create draws its number last: the counter is locked for the draw, its store, the audit row and the commit', async () => {
    let made: Row = {};
    const run = await statements(async () => { made = await draft(3); });
    const counter = run.findIndex((s) => /^insert into "numbering_counter"/.test(s));
    expect(counter).toBeGreaterThan(run.findIndex((s) => /^insert into "goods_receipt_item"/.test(s)));
    // after the draw: the number stored (asking at once whether it is taken), then the audit row, nothing else
    expect(run.slice(counter + 1).map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['update "goods_receipt" set', 'insert into "system_log"']);
    expect(made.doc_no).toMatch(/^GR202611-\d{4}$/);
    // the stored row and the audit row both have the number the answer gives
    expect((await t.db.kysely.selectFrom('goods_receipt').select('doc_no').where('id', '=', made.id).executeTakeFirstOrThrow()).doc_no).toBe(made.doc_no);
    const audit = await t.db.kysely.selectFrom('system_log').select('changes').where('entity', '=', 'goods_receipt').where('record_id', '=', String(made.id)).where('action', '=', 'create').executeTakeFirstOrThrow();
    expect(JSON.parse(String(audit.changes)).doc_no).toEqual([null, made.doc_no]);
  });

  it('a posting locks the balance rows last: after its audit row only the stock ledger\'s statements run, then the general ledger\'s entry', async () => {
    for (const [entity, made] of [['goods_receipt', await draft(3)], ['internal_product_transfer', await transfer(3)]] as const) {
      const run = await statements(() => c.ok(c.action(entity, made.id, 'approve')));
      const audit = run.findIndex((s) => /^insert into "system_log"/.test(s));
      const firstBalance = run.findIndex((s) => /"stock_balance"/.test(s));
      expect(audit).toBeGreaterThanOrEqual(0);
      expect(firstBalance).toBeGreaterThan(audit);
      // the stock ledger's own tables (balances and their product x inventory totals, the movements and their day
      // summary), then the general ledger's entry and its day summaries (issue 50): a delivery's cost of goods sold is the value the stock
      // statements have just moved, so the entry is written after them, the transaction's last statements
      const journal = run.findIndex((s, i) => i > firstBalance && !/"stock_/.test(s));
      const stockPart = journal < 0 ? run.slice(firstBalance) : run.slice(firstBalance, journal);
      expect(stockPart.filter((s) => !/"stock_(balance|balance_total|lot_total|movement|movement_day|snapshot_date)"/.test(s))).toEqual([]);
      // the entry was planned before (issue 49): what it reads (the document, the role map, the companies, the closed
      // period, the number's company code) was read before the balances were locked, and the stock values it books were
      // handed over by the stock statements; only the writes are left. PostgreSQL sends them in the stock ledger's last
      // statement, the number's counter (locked by every entry of the company and month) drawn in it, so no statement
      // follows the balances'; SQLite one by one after them, the number last
      const entryParts = ['c" as (insert into "numbering_counter"', 'e" as (insert into "journal_entry"', 'l" as (insert into "journal_entry_item"', 'd0" as (insert into "journal_account_day"', 'd1" as (insert into "journal_party_day"']
        .map((part) => `"j${made.id}_0_${part}`);
      if (dialect === 'postgres') {
        expect(journal).toBe(-1);
        for (const part of entryParts) {
          if (entity === 'goods_receipt') expect(stockPart.at(-1)).toContain(part);
          else expect(stockPart.at(-1)).not.toContain(part);
        }
      } else if (journal >= 0) {
        expect(run.slice(journal).map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual([
          'insert into "journal_entry"', 'insert into "journal_entry_item"',
          'insert into "journal_account_day"', 'insert into "journal_party_day"', 'insert into "numbering_counter"', 'update "journal_entry" set',
        ]);
      }
      if (entity === 'goods_receipt' && dialect !== 'postgres') expect(journal).toBeGreaterThan(0);
      expect(run.filter((s) => /insert into "stock_movement" \(/.test(s))).toHaveLength(1);
      // a receipt's ins are judged by no balance: its rows (and their totals) are locked by the writes that add to them, the last statements
      if (entity === 'goods_receipt') expect(stockPart.filter((s) => !/"stock_(balance|balance_total|lot_total)"/.test(s))).toEqual([]);
      if (dialect === 'postgres') {
        // PostgreSQL: the ledger rows, their day rows, the balances, their totals and the newest snapshot date are one
        // statement (data-modifying CTEs), the transaction's last; a transfer first reads the rows it may take from and locks them
        const ledger = stockPart.at(-1)!;
        for (const table of ['stock_movement', 'stock_movement_day', 'stock_balance', 'stock_balance_total']) expect(ledger).toContain(`insert into "${table}" (`);
        expect(ledger).toContain('stock_snapshot_date');
        expect(stockPart.length).toBe(entity === 'goods_receipt' ? 1 : 3);
      }
    }
    // a direct adjustment too: its movement row and audit row first, its balance row last (so it was before, the audit
    // listener being installed first; as a step for the end it stays so whatever order the listeners are installed in)
    const adjusted = await statements(() => c.ok(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(products[0]!, mine, { movement_type: 'adjustment', qty: 1 })), 201));
    const audit = adjusted.findIndex((s) => /^insert into "system_log"/.test(s));
    const firstBalance = adjusted.findIndex((s) => /"stock_balance"/.test(s));
    expect(audit).toBeGreaterThanOrEqual(0);
    expect(firstBalance).toBeGreaterThan(audit);
  });
});
