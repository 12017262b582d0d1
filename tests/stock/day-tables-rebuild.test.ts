/**
 * Issue 45 §3: the day tables (stock_movement_day, stock_balance.first_in_day) are rebuilt at start when
 * BUSINESS_TIME_ZONE changed since they were built, or when a restore brought a ledger from before them
 * (its day rows missing, first_in_day empty): they then hold the business days of the ledger in the zone now.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, any>;
const BANGKOK = 'Asia/Bangkok';
const dayIn = (zone: string, iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

describe.each(testDialects())('day tables at start on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let product: number;
  let wh: number;

  beforeAll(async () => {
    businessClock.timeZone = BANGKOK;
    t = await createTestApp(dialect);
    c = new StockClient(t);
    wh = await c.inventory(await c.company());
    product = await c.product();
    await c.receive(wh, [{ product_id: product, qty: 5, price: 10 }]);
  });
  afterAll(async () => {
    businessClock.timeZone = BANGKOK;
    await t?.close();
  });

  const movements = async () => (await t.db.kysely.selectFrom('stock_movement').select(['movement_date', 'inventory_id']).execute()) as Row[];
  const days = async () => ((await t.db.kysely.selectFrom('stock_movement_day').select(['business_day', 'movement_count']).execute()) as Row[]).map((r) => [String(r.business_day), Number(r.movement_count)]);
  const firstIn = async () => String((await t.db.kysely.selectFrom('stock_balance').select('first_in_day').where('product_id', '=', product).executeTakeFirstOrThrow()).first_in_day);
  const expected = (zone: string, ms: Row[]) => ms.map((m) => [dayIn(zone, new Date(m.movement_date).toISOString()), 1]);

  it('a new BUSINESS_TIME_ZONE: the day rows and first_in_day follow it', async () => {
    const ms = await movements();
    expect(ms).toHaveLength(1);
    const at = new Date(ms[0]!.movement_date).toISOString();
    expect(await days()).toEqual(expected(BANGKOK, ms));
    // a zone whose day of this movement is not Bangkok's (UTC+14 or UTC-11, whichever differs now)
    const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((z) => dayIn(z, at) !== dayIn(BANGKOK, at))!;
    businessClock.timeZone = zone;
    await prepareDatabase(t.db, t.registry);
    expect(await days()).toEqual(expected(zone, ms));
    expect(await firstIn()).toBe(dayIn(zone, at));
    businessClock.timeZone = BANGKOK;
    await prepareDatabase(t.db, t.registry);
    expect(await days()).toEqual(expected(BANGKOK, ms));
    expect(await firstIn()).toBe(dayIn(BANGKOK, at));
  });

  it('a restored ledger from before the day tables: rebuilt at the next start', async () => {
    await c.receive(wh, [{ product_id: product, qty: 2, price: 11 }]);
    // what such a restore leaves: no day rows for the ledger, first_in_day empty (the column's default)
    await t.db.kysely.deleteFrom('stock_movement_day').execute();
    await t.db.kysely.updateTable('stock_balance').set({ first_in_day: '' }).execute();
    await prepareDatabase(t.db, t.registry);
    const ms = await movements();
    const want = new Map<string, number>();
    for (const [d] of expected(BANGKOK, ms)) want.set(d as string, (want.get(d as string) ?? 0) + 1);
    const got = new Map<string, number>();
    for (const [d, n] of await days()) got.set(d as string, (got.get(d as string) ?? 0) + (n as number));
    expect(got).toEqual(want);
    expect(await firstIn()).toBe(dayIn(BANGKOK, new Date(ms[0]!.movement_date).toISOString()));
  });
});
