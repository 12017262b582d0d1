/**
 * The container (product_container: a pallet, a drum) is part of the stock
 * balance key: stock received into two containers of the same product and
 * lot stays two balances, a line that names a container takes only from it,
 * a transfer carries the container with the goods (and one made from a
 * delivery carries the delivery's container), and a balance table made
 * before containers gets the column and the wider key, its rows kept.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { createTestDatabase, testDialects } from '../support/test-databases.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { ensureStockTables } from '../../server/stock/stock-ledger.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { readSchemaDir } from '../../server/schema-files.ts';
import { SCHEMAS_DIR } from '../support/test-app.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('containers in the stock balance on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number[];
  let seq = 0;
  const container = async () => (await c.ok(c.call('POST', '/api/product_container', c.admin, { code: `PL-${++seq}`, name: `พาเลท ${seq}`, container_type: 'pallet' }), 201)).id as number;
  const rows = async (p: number) => (await t.db.kysely.selectFrom('stock_balance').select(['inventory_id', 'lot_no', 'container_id', 'qty']).where('product_id', '=', p).orderBy('inventory_id').orderBy('container_id').execute())
    .map((r) => [Number(r.inventory_id), r.lot_no, Number(r.container_id), Number(r.qty) / 10_000]);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    await c.settings({ do_create_type: 'create_without_so' });
    company = await c.company();
    customer = await c.customer();
    wh = [await c.inventory(company), await c.inventory(company)];
  });
  afterAll(async () => t?.close());

  it('keeps one balance per container; a delivery from one container refuses more than it holds', async () => {
    const p = await c.product();
    const [a, b] = [await container(), await container()];
    const gr = await c.receive(wh[0]!, [{ product_id: p, qty: 5, price: 10, lot_no: 'L1', product_container_id: a }, { product_id: p, qty: 3, price: 10, lot_no: 'L1', product_container_id: b }]);
    expect(await rows(p)).toEqual([[wh[0], 'L1', a, 5], [wh[0], 'L1', b, 3]]);
    const moves = (await c.ok(c.call('GET', `/api/stock_movement?sort=id&filter=${encodeURIComponent(JSON.stringify({ doc_entity: { _eq: 'goods_receipt' }, doc_id: { _eq: gr.id } }))}`, c.admin))) as unknown as Row[];
    expect(moves.map((m) => [m.product_container_id, m.qty])).toEqual([[a, 5], [b, 3]]);
    // the lot's balance is still one row: containers are summed where the API groups by lot
    expect((await c.ok(c.balance({ product_id: p, group_by: 'lot' }))).map((r: Row) => [r.lot_no, r.qty_on_hand])).toEqual([['L1', 8]]);
    const over = await c.draft('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 4, product_container_id: b }]);
    const res = await c.action('delivery_order', over.id, 'approve');
    expectError(res, 409, 'INSUFFICIENT_STOCK');
    expect(res.json().error.details).toMatchObject({ line: 'items.0', product_id: p, container_id: b, on_hand: 3, asked: 4, shortfall: 1 });
    expect(await rows(p)).toEqual([[wh[0], 'L1', a, 5], [wh[0], 'L1', b, 3]]);
    const sent = await c.posted('delivery_order', { customer_id: customer, your_company_id: company, inventory_id: wh[0] }, [{ product_id: p, qty: 3, product_container_id: b }]);
    expect(await rows(p)).toEqual([[wh[0], 'L1', a, 5], [wh[0], 'L1', b, 0]]);
    // a transfer made from the delivery carries its container, like its lot
    const tr = await c.ok(c.call('POST', '/api/internal_product_transfer/from/delivery_order', c.admin, { ids: [sent.id] }), 201);
    expect(tr.items.map((l: Row) => [l.lot_no, l.product_container_id, l.qty])).toEqual([[null, b, 3]]);
  });

  it('a transfer carries the container with the goods, and cancelling brings it back', async () => {
    const p = await c.product();
    const a = await container();
    await c.receive(wh[0]!, [{ product_id: p, qty: 4, price: 10 }, { product_id: p, qty: 2, price: 10, product_container_id: a }]);
    const tr = await c.posted('internal_product_transfer', { from_inventory_id: wh[0], to_inventory_id: wh[1] }, [{ product_id: p, qty: 2, product_container_id: a }]);
    expect(await rows(p)).toEqual([[wh[0], '', 0, 4], [wh[0], '', a, 0], [wh[1], '', a, 2]]);
    await c.ok(c.action('internal_product_transfer', tr.id, 'cancel'));
    expect(await rows(p)).toEqual([[wh[0], '', 0, 4], [wh[0], '', a, 2], [wh[1], '', a, 0]]);
  });

  it('a balance table made before containers gets the column and the wider key, its rows kept', async () => {
    const fresh = await createTestDatabase(dialect);
    const db = openDatabase(fresh.url);
    try {
      await sql`create table stock_balance (product_id integer not null, inventory_id integer not null, location_id integer not null default 0,
        lot_no text not null default '', expiry_date text not null default '', qty bigint not null default 0, value bigint not null default 0,
        constraint stock_balance_pk primary key (product_id, inventory_id, location_id, lot_no, expiry_date))`.execute(db.kysely);
      await sql`insert into stock_balance (product_id, inventory_id, location_id, lot_no, expiry_date, qty, value) values (1, 2, 0, 'L1', '', 50000, 700)`.execute(db.kysely);
      await ensureStockTables(db, new SchemaRegistry(readSchemaDir(SCHEMAS_DIR)));
      await ensureStockTables(db, new SchemaRegistry(readSchemaDir(SCHEMAS_DIR)));
      await sql`insert into stock_balance (product_id, inventory_id, location_id, lot_no, expiry_date, qty, value, container_id) values (1, 2, 0, 'L1', '', 10000, 100, 9)`.execute(db.kysely);
      const all = await db.kysely.selectFrom('stock_balance').select(['container_id', 'qty', 'value']).orderBy('container_id').execute();
      expect(all.map((r) => [Number(r.container_id), Number(r.qty), Number(r.value)])).toEqual([[0, 50000, 700], [9, 10000, 100]]);
      await expect(sql`insert into stock_balance (product_id, inventory_id, location_id, lot_no, expiry_date, qty, value, container_id) values (1, 2, 0, 'L1', '', 1, 1, 9)`.execute(db.kysely)).rejects.toThrow();
    } finally {
      await db.close();
      await fresh.drop();
    }
  });
});
