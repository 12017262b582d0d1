/**
 * The ledger posts a document in a few statements (one read of the stock the
 * open lines may take, one locking read of every balance row touched, one
 * write of the balances, one of the movements). These cover what that batching
 * must keep: a short line in the middle of a document refuses the whole
 * posting and names that line, lines of the same product are judged one after
 * another as before, and postings in parallel over the same rows in opposite
 * orders neither deadlock nor lose stock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('batched stock posting on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];
  const delivery = () => ({ customer_id: customer, your_company_id: company, inventory_id: wh[0] });
  const movementsOf = async (entity: string, id: number) => (await c.ok(c.call('GET', `/api/stock_movement?sort=id&filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: entity }, doc_id: { _eq: id } }))}`, c.admin))) as unknown as Row[];
  const byLot = async (p: number, inventory: number) => ((await c.ok(c.balance({ product_id: p, inventory_id: inventory, group_by: 'lot' }))) as unknown as Row[]).map((r) => [r.lot_no, r.qty_on_hand]);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  it('a short line in the middle refuses the whole delivery, names that line, and writes nothing', async () => {
    const [a, b, d] = [await c.product(), await c.product(), await c.product()];
    await c.receive(wh[0]!, [{ product_id: a, qty: 5, price: 10 }, { product_id: b, qty: 3, price: 10, lot_no: 'B1' }, { product_id: d, qty: 5, price: 10 }]);
    // a line that names its lot …
    const named = await c.draft('delivery_order', delivery(), [{ product_id: a, qty: 1 }, { product_id: b, qty: 4, lot_no: 'B1' }, { product_id: d, qty: 1 }]);
    const res = await c.action('delivery_order', named.id, 'approve');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ line: 'items.1', product_id: b, inventory_id: wh[0], lot_no: 'B1', on_hand: 3, asked: 4, shortfall: 1 });
    // … and one that leaves it open (taken over the rows, earliest expiry first)
    const open = await c.draft('delivery_order', delivery(), [{ product_id: a, qty: 1 }, { product_id: d, qty: 1 }, { product_id: b, qty: 3.5 }, { product_id: a, qty: 1 }]);
    const res2 = await c.action('delivery_order', open.id, 'approve');
    expectError(res2, 409, 'INSUFFICIENT_STOCK');
    expect(res2.json().error.details).toMatchObject({ line: 'items.2', product_id: b, on_hand: 3, asked: 3.5, shortfall: 0.5 });
    for (const doc of [named, open]) {
      expect((await c.ok(c.call('GET', `/api/delivery_order/${doc.id}`, c.admin))).status).toBe('draft');
      expect(await movementsOf('delivery_order', doc.id)).toEqual([]);
    }
    expect([await c.onHand(a, wh[0]!), await c.onHand(b, wh[0]!), await c.onHand(d, wh[0]!)]).toEqual([5, 3, 5]);
  });

  it('lines of the same product never count the same stock twice: each takes what the lines before it left', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 3, price: 100, lot_no: 'L1', expiry_date: '2027-01-31' }, { product_id: p, qty: 2, price: 200, lot_no: 'L2', expiry_date: '2027-06-30' }]);
    // the first line takes 2 of L1, the open line the last 1 of L1 and both of L2: nothing of L1 is left for the third
    const over = await c.draft('delivery_order', delivery(), [{ product_id: p, qty: 2, lot_no: 'L1', expiry_date: '2027-01-31' }, { product_id: p, qty: 3 }, { product_id: p, qty: 1, lot_no: 'L1', expiry_date: '2027-01-31' }]);
    const res = await c.action('delivery_order', over.id, 'approve');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ line: 'items.2', lot_no: 'L1', on_hand: 0, asked: 1 });
    expect(await byLot(p, wh[0]!)).toEqual([['L1', 3], ['L2', 2]]);
    // within what is there: each line takes its own, and the moving-average cost follows each row
    const fits = await c.posted('delivery_order', delivery(), [{ product_id: p, qty: 1, lot_no: 'L2', expiry_date: '2027-06-30' }, { product_id: p, qty: 2 }, { product_id: p, qty: 1, lot_no: 'L1', expiry_date: '2027-01-31' }]);
    expect((await movementsOf('delivery_order', fits.id)).map((m) => [m.doc_line_id, m.lot_no, m.qty, m.unit_cost])).toEqual([
      [fits.items[0].id, 'L2', 1, 200], [fits.items[1].id, 'L1', 2, 100], [fits.items[2].id, 'L1', 1, 100],
    ]);
    expect(await byLot(p, wh[0]!)).toEqual([['L1', 0], ['L2', 1]]);
    // cancelling writes every reversal back in one posting
    await c.ok(c.action('delivery_order', fits.id, 'cancel'));
    expect(await byLot(p, wh[0]!)).toEqual([['L1', 3], ['L2', 2]]);
  });

  it('cancelling a receipt whose middle line was delivered reverses none of it', async () => {
    const [a, b, d] = [await c.product(), await c.product(), await c.product()];
    const gr = await c.receive(wh[0]!, [{ product_id: a, qty: 2, price: 10 }, { product_id: b, qty: 2, price: 10 }, { product_id: d, qty: 2, price: 10 }]);
    await c.posted('delivery_order', delivery(), [{ product_id: b, qty: 1 }]);
    const res = await c.action('goods_receipt', gr.id, 'cancel');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ product_id: b, on_hand: 1, asked: 2, shortfall: 1 });
    expect([await c.onHand(a, wh[0]!), await c.onHand(b, wh[0]!), await c.onHand(d, wh[0]!)]).toEqual([2, 1, 2]);
    expect((await movementsOf('goods_receipt', gr.id)).map((m) => m.direction)).toEqual(['in', 'in', 'in']);
  });

  it('transfers in opposite directions over the same rows, in parallel, all post and lose nothing', async () => {
    const [p, q] = [await c.product(), await c.product()];
    for (const inv of wh) await c.receive(inv, [{ product_id: p, qty: 50, price: 10 }, { product_id: q, qty: 50, price: 10 }]);
    const drafts: Row[] = [];
    for (let i = 0; i < 16; i++) {
      const [from, to] = i % 2 ? [wh[0], wh[1]] : [wh[1], wh[0]];
      // the lines in both orders too
      drafts.push(await c.draft('internal_product_transfer', { from_inventory_id: from, to_inventory_id: to }, i % 4 < 2 ? [{ product_id: p, qty: 1 }, { product_id: q, qty: 2 }] : [{ product_id: q, qty: 2 }, { product_id: p, qty: 1 }]));
    }
    const results = await Promise.all(drafts.map((d) => c.action('internal_product_transfer', d.id, 'approve')));
    expect(results.map((r) => r.statusCode)).toEqual(Array(16).fill(200));
    expect([await c.onHand(p, wh[0]!), await c.onHand(p, wh[1]!), await c.onHand(q, wh[0]!), await c.onHand(q, wh[1]!)]).toEqual([50, 50, 50, 50]);
  });
});
