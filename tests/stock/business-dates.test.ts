/**
 * Issue 31 §8: every date in the stock code is a business date
 * (BUSINESS_TIME_ZONE, Asia/Bangkok here): a count entered at 00:30 in
 * Bangkok on 1 November belongs to 1 November, a document's movements are
 * dated the start of its business day, a cancellation the business day it
 * happens, `as_of=D` is the end of business day D (month-end snapshots cut
 * there too), and the /incoming and /outgoing day answers hold everything of
 * that business day. The clock is the business clock, moved by the tests.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { businessDayEnd, businessDayOf, businessDayStart } from '../../server/stock/business-days.ts';
import { takeSnapshot } from '../../server/stock/stock-snapshots.ts';

type Row = Record<string, any>;

describe('business days', () => {
  it('start at midnight in the business zone, also where daylight saving skips midnight', () => {
    expect(businessDayStart('2026-11-01', 'Asia/Bangkok')).toBe('2026-10-31T17:00:00.000Z');
    expect(businessDayEnd('2026-11-01', 'Asia/Bangkok')).toBe('2026-11-01T17:00:00.000Z');
    expect(businessDayOf('2026-10-31T17:30:00.000Z', 'Asia/Bangkok')).toBe('2026-11-01');
    expect(businessDayOf('2026-10-31T16:59:59.999Z', 'Asia/Bangkok')).toBe('2026-10-31');
    expect(businessDayStart('2026-11-01', 'UTC')).toBe('2026-11-01T00:00:00.000Z');
    // São Paulo went from 00:00 straight to 01:00 on 4 November 2018
    expect(businessDayStart('2018-11-04', 'America/Sao_Paulo')).toBe('2018-11-04T03:00:00.000Z');
    expect(businessDayStart('2026-03-08', 'America/New_York')).toBe('2026-03-08T05:00:00.000Z');
  });
});

describe.each(testDialects())('business dates in the stock code on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let wh: number;
  const realNow = businessClock.now;
  const at = (iso: string) => { businessClock.now = () => new Date(iso); };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    wh = await c.inventory(company);
  });
  afterEach(() => { businessClock.now = realNow; });
  afterAll(async () => t?.close());

  const count = (p: number, movementDate: string, qty: number) =>
    c.ok(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(p, wh, { movement_date: movementDate, movement_type: 'adjustment', qty, unit_cost: 10 })), 201);
  const day = async (direction: string, date: string) => (await c.ok(c.call('GET', `/api/stock/movements?direction=${direction}&date=${date}&inventory_id=${wh}`, c.admin))) as unknown as Row[];

  it('a count entered at 00:30 in Bangkok on 1 November belongs to 1 November, in the day screen and in as_of', async () => {
    at('2026-10-31T17:30:00.000Z');
    const p = await c.product();
    const late = await count(p, '2026-10-31T16:59:59.000Z', 1);
    const early = await count(p, '2026-10-31T17:30:00.000Z', 5);
    const gr = await c.receive(wh, [{ product_id: p, qty: 2, price: 10 }], { doc_date: '2026-11-01' });
    const first = await day('in', '2026-11-01');
    expect(first.filter((m) => m.product_id === p).map((m) => [m.id === early.id ? 'count' : m.doc_id === gr.id ? 'receipt' : m.id, m.business_date])).toEqual([['receipt', '2026-11-01'], ['count', '2026-11-01']]);
    expect((await day('in', '2026-10-31')).filter((m) => m.product_id === p).map((m) => [m.id, m.business_date])).toEqual([[late.id, '2026-10-31']]);
    // a document's movements are dated the start of its business day
    const moves = (await c.ok(c.call('GET', `/api/stock_movement?filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'goods_receipt' }, doc_id: { _eq: gr.id } }))}`, c.admin))) as unknown as Row[];
    expect(moves.map((m) => m.movement_date)).toEqual(['2026-10-31T17:00:00.000Z']);
    // as_of=D is the end of business day D
    expect(await c.onHand(p, wh, '2026-10-31')).toBe(1);
    expect(await c.onHand(p, wh, '2026-11-01')).toBe(8);
  });

  it('a cancellation is dated the business day it happens, not the UTC one', async () => {
    const p = await c.product();
    const gr = await c.receive(wh, [{ product_id: p, qty: 3, price: 10 }], { doc_date: '2026-10-20' });
    const gr2 = await c.receive(wh, [{ product_id: p, qty: 4, price: 10 }], { doc_date: '2026-10-20' });
    // 00:30 on 1 November in Bangkok is still 31 October in UTC
    at('2026-10-31T17:30:00.000Z');
    await c.ok(c.action('goods_receipt', gr.id, 'cancel'));
    // 06:30 on 2 November in Bangkok is 1 November in UTC
    at('2026-11-01T23:30:00.000Z');
    await c.ok(c.action('goods_receipt', gr2.id, 'cancel'));
    const reversals = (await c.ok(c.call('GET', `/api/stock_movement?sort=id&filter=${encodeURIComponent(JSON.stringify({ product_id: { _eq: p }, note: { _eq: 'reversal' } }))}`, c.admin))) as unknown as Row[];
    expect(reversals.map((m) => m.movement_date)).toEqual(['2026-10-31T17:00:00.000Z', '2026-11-01T17:00:00.000Z']);
    expect(await c.onHand(p, wh, '2026-10-31')).toBe(7);
    expect(await c.onHand(p, wh, '2026-11-01')).toBe(4);
    expect(await c.onHand(p, wh, '2026-11-02')).toBe(0);
    expect((await day('out', '2026-11-02')).filter((m) => m.product_id === p).map((m) => m.qty)).toEqual([4]);
  });

  it('a month-end snapshot ends with the business day, and later entries join it by their business day', async () => {
    const p = await c.product();
    await count(p, '2026-09-30T12:00:00.000Z', 1);
    // the server may have taken it already in the background: either way it exists now
    await takeSnapshot(t.db, t.registry.held('stockMovements'), '2026-09-30');
    // backdated after the snapshot: 23:30 on 30 September, and 00:30 on 1 October, in Bangkok (both 30 September in UTC)
    await count(p, '2026-09-30T16:30:00.000Z', 2);
    await count(p, '2026-09-30T17:30:00.000Z', 4);
    const snap = await t.db.kysely.selectFrom('stock_snapshot').select('qty').where('as_of_date', '=', '2026-09-30').where('product_id', '=', p).execute();
    expect(snap.map((r) => Number(r.qty))).toEqual([30_000]);
    expect(await c.onHand(p, wh, '2026-09-30')).toBe(3);
    expect(await c.onHand(p, wh, '2026-10-01')).toBe(7);
  });
});
