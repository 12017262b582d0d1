/**
 * Issue 31 §7: stock values that add up. A reversal takes back exactly what
 * its original put in (a receipt's own cost, never the average), a delivery's
 * reversal puts back exactly what it took, an out stores what the balance
 * lost (a manual stock-out too), a transfer's in-leg receives exactly what
 * its out-leg took, and for every key the ledger equals the balance in
 * quantity and value after every step of a random sequence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { ledgerMismatches } from '../support/stock-ledger-check.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import { AppError } from '../../server/errors/app-error.ts';

type Row = Record<string, any>;

/** A small seeded generator, so a failure can be replayed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

describe.each(testDialects())('stock values on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  /** Quantity (units) and value (baht) held of a product in an inventory, from the balance table. */
  const held = async (p: number, w: number) => {
    const rows = await t.db.kysely.selectFrom('stock_balance').select(['qty', 'value']).where('product_id', '=', p).where('inventory_id', '=', w).execute();
    return { qty: rows.reduce((s, r) => s + Number(r.qty), 0) / 10_000, value: rows.reduce((s, r) => s + Number(r.value), 0) / 100 };
  };
  const movesOf = async (entity: string, id: number) => (await c.ok(c.call('GET', `/api/stock_movement?sort=id&filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: entity }, doc_id: { _eq: id } }))}`, c.admin))) as unknown as Row[];
  const deliver = (w: number, lines: { product_id: number; qty: number }[]) => c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: w }, lines);
  const agrees = async () => expect(await ledgerMismatches(t.db.kysely)).toEqual([]);

  it('cancelling a receipt takes its stock out at that receipt\'s own cost, not the average', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 10, price: 100 }]);
    const second = await c.receive(wh[0]!, [{ product_id: p, qty: 10, price: 200 }]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 20, value: 3000 });
    await c.ok(c.action('goods_receipt', second.id, 'cancel'));
    // the average (150) would leave 1,500
    expect(await held(p, wh[0]!)).toEqual({ qty: 10, value: 1000 });
    const reversal = (await movesOf('goods_receipt', second.id)).filter((m) => m.note === 'reversal');
    expect(reversal.map((m) => [m.direction, m.qty, m.unit_cost, m.value])).toEqual([['out', 10, 200, 2000]]);
    await agrees();
  });

  it('a manual stock-out stores what the balance lost, whatever unit cost was sent', async () => {
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 1, price: 100 }, { product_id: p, qty: 1, price: 200 }]);
    const out = await c.ok(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh[0]!, { direction: 'out', movement_type: 'adjustment', qty: 1, unit_cost: 999 })), 201);
    // the answer and the stored row both say what the balance lost: the moving average
    expect([out.unit_cost, out.value]).toEqual([150, 150]);
    const stored = await c.ok(c.call('GET', `/api/stock_movement/${out.id}`, c.admin));
    expect([stored.unit_cost, stored.value]).toEqual([150, 150]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 1, value: 150 });
    // a manual stock-in adds what it says, and records it
    const inn = await c.ok(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh[0]!, { movement_type: 'adjustment', qty: 2.5, unit_cost: 10.01 })), 201);
    expect([inn.unit_cost, inn.value]).toEqual([10.01, 25.03]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 3.5, value: 175.03 });
    await agrees();
  });

  it('a delivery\'s reversal puts back exactly what it took, and a transfer\'s in-leg receives exactly what its out-leg took', async () => {
    const p = await c.product();
    // 3 units worth 1.01: 2.5 of them are worth 0.84 (0.336 a unit, stored as 0.34; 2.5 × 0.34 would be 0.85)
    await c.receive(wh[0]!, [{ product_id: p, qty: 1, price: 0.35 }, { product_id: p, qty: 2, price: 0.33 }]);
    const d = await deliver(wh[0]!, [{ product_id: p, qty: 2.5 }]);
    expect((await movesOf('delivery_order', d.id)).map((m) => [m.direction, m.unit_cost, m.value])).toEqual([['out', 0.34, 0.84]]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 0.5, value: 0.17 });
    await c.ok(c.action('delivery_order', d.id, 'cancel'));
    expect(await held(p, wh[0]!)).toEqual({ qty: 3, value: 1.01 });
    const tr = await c.posted('internal_product_transfer', { from_inventory_id: wh[0], to_inventory_id: wh[1] }, [{ product_id: p, qty: 2.5 }]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 0.5, value: 0.17 });
    expect(await held(p, wh[1]!)).toEqual({ qty: 2.5, value: 0.84 });
    // cancelling the transfer brings back exactly the value on both sides
    await c.ok(c.action('internal_product_transfer', tr.id, 'cancel'));
    expect(await held(p, wh[0]!)).toEqual({ qty: 3, value: 1.01 });
    expect(await held(p, wh[1]!)).toEqual({ qty: 0, value: 0 });
    await agrees();
  });

  it('a receipt cancelled after some of its stock left takes its own cost, never more value than is held, and all of it with the last unit', async () => {
    // deliveries in between were costed at the average that included this receipt; they are not reposted
    const p = await c.product();
    await c.receive(wh[0]!, [{ product_id: p, qty: 10, price: 100 }]);
    const dear = await c.receive(wh[0]!, [{ product_id: p, qty: 10, price: 200 }]);
    await deliver(wh[0]!, [{ product_id: p, qty: 5 }]);
    expect(await held(p, wh[0]!)).toEqual({ qty: 15, value: 2250 });
    await c.ok(c.action('goods_receipt', dear.id, 'cancel'));
    expect(await held(p, wh[0]!)).toEqual({ qty: 5, value: 250 });

    // free samples, then a dear receipt: after a delivery the key holds less value than that receipt put in
    const q = await c.product();
    await c.receive(wh[0]!, [{ product_id: q, qty: 5, price: 0 }]);
    const big = await c.receive(wh[0]!, [{ product_id: q, qty: 10, price: 300 }]);
    await deliver(wh[0]!, [{ product_id: q, qty: 4 }]);
    expect(await held(q, wh[0]!)).toEqual({ qty: 11, value: 2200 });
    await c.ok(c.action('goods_receipt', big.id, 'cancel'));
    expect(await held(q, wh[0]!)).toEqual({ qty: 1, value: 0 });
    expect((await movesOf('goods_receipt', big.id)).filter((m) => m.note === 'reversal').map((m) => [m.qty, m.value])).toEqual([[10, 2200]]);

    // a reversal that takes the last of the stock takes all the value left: none stays without stock
    const r = await c.product();
    const cheap = await c.receive(wh[0]!, [{ product_id: r, qty: 10, price: 100 }]);
    await c.receive(wh[0]!, [{ product_id: r, qty: 10, price: 200 }]);
    await deliver(wh[0]!, [{ product_id: r, qty: 10 }]);
    await c.ok(c.action('goods_receipt', cheap.id, 'cancel'));
    expect(await held(r, wh[0]!)).toEqual({ qty: 0, value: 0 });
    await agrees();
  });

  it.each([310701, 20261126, 7])('after every step of a random sequence of receipts, deliveries, transfers, adjustments and cancellations, the ledger equals the balance (seed %i)', async (seed) => {
    const rnd = prng(seed);
    const pick = <T>(list: T[]): T => list[Math.floor(rnd() * list.length)]!;
    const products = [await c.product(), await c.product()];
    // a third inventory may go below zero: the ledger still equals the balance there
    const negative = await c.inventory(company);
    await c.ok(c.call('PATCH', `/api/inventory/${negative}`, c.admin, { is_allow_negative_stock: true }));
    const places = [...wh, negative];
    const lots = [undefined, 'A', 'B'];
    const posted: { entity: string; id: number }[] = [];
    const done = { posted: 0, adjusted: 0, cancelled: 0, refused: 0 };
    /** Runs one operation; a refusal for want of stock is expected now and then, and writes nothing. */
    const attempt = async (work: () => Promise<unknown>, kind: keyof typeof done) => {
      try { await work(); done[kind]++; } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_STOCK') throw err;
        done.refused++;
      }
    };
    const post = async (entity: string, body: Row) => {
      const doc = await t.service.create(entity, body, systemContext);
      await attempt(async () => { await t.service.runAction(entity, Number(doc.id), 'approve', {}, systemContext); posted.push({ entity, id: Number(doc.id) }); }, 'posted');
    };
    for (let step = 0; step < 150; step++) {
      const r = rnd();
      const p = pick(products);
      const w = pick(places);
      const lot = pick(lots);
      // quantities with 4 decimals and prices with satang, so rounding is exercised
      const qty = Math.round((0.0001 + rnd() * 7) * 10_000) / 10_000;
      const line = { product_id: p, qty, ...(lot ? { lot_no: lot } : {}) };
      if (r < 0.3) await post('goods_receipt', { doc_date: '2026-11-20', inventory_id: w, items: [{ ...line, price: Math.round(rnd() * 50_000) / 100 }] });
      else if (r < 0.5) await post('delivery_order', { doc_date: '2026-11-20', inventory_id: w, customer_id: customer, your_company_id: company, items: [line] });
      else if (r < 0.6) await post('internal_product_transfer', { doc_date: '2026-11-20', from_inventory_id: w, to_inventory_id: pick(places.filter((x) => x !== w)), items: [line] });
      else if (r < 0.75) {
        const body = { movement_date: '2026-11-20T03:00:00.000Z', product_id: p, inventory_id: w, direction: rnd() < 0.5 ? 'in' : 'out', movement_type: 'adjustment', qty, unit_cost: Math.round(rnd() * 50_000) / 100, ...(lot ? { lot_no: lot } : {}) };
        await attempt(() => t.service.create('stock_movement', body, systemContext), 'adjusted');
      } else if (posted.length) {
        const d = posted.splice(Math.floor(rnd() * posted.length), 1)[0]!;
        await attempt(() => t.service.runAction(d.entity, d.id, 'cancel', {}, systemContext), 'cancelled');
      }
      expect(await ledgerMismatches(t.db.kysely), `after step ${step}`).toEqual([]);
    }
    for (const n of Object.values(done)) expect(n).toBeGreaterThan(3);
    // where stock may not go negative, no value is held without stock, and none is negative
    const rows = await t.db.kysely.selectFrom('stock_balance').select(['qty', 'value']).where('product_id', 'in', products).where('inventory_id', 'in', wh).execute();
    for (const row of rows) {
      expect(Number(row.value)).toBeGreaterThanOrEqual(0);
      if (Number(row.qty) === 0) expect(Number(row.value)).toBe(0);
    }
  }, 120_000);
});
