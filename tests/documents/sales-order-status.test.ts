/**
 * Issue 31 §6, invoicing is not delivering: a sales order keeps a delivery
 * status (its deliveries) and a billing status (its tax invoices) apart. Stock
 * bookings are released by deliveries, by closing or by cancelling the order,
 * never by a tax invoice; the order is completed when delivered and billed.
 * Also: a database from before these fields gets them worked out from the
 * progress counters when it starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';

type Row = Record<string, any>;

describe.each(testDialects())('sales order delivery and billing status on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let wh: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    customer = await c.customer();
    wh = await c.inventory(company);
  });
  afterAll(async () => t?.close());

  const get = (entity: string, id: number) => c.ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = (entity: string, id: number, action: string) => c.ok(c.action(entity, id, action));
  const booked = async (p: number) => ((await c.ok(c.balance({ product_id: p, inventory_id: wh }))) as unknown as Row[]).reduce((s, r) => s + r.qty_booked, 0);
  const statuses = async (id: number) => {
    const so = await get('sales_order', id);
    return { status: so.status, delivery_status: so.delivery_status, billing_status: so.billing_status };
  };

  /** A product with 10 on hand and an approved order of `qty` of it, shipped from the test inventory. */
  const order = async (qty: number): Promise<{ p: number; so: Row }> => {
    const p = await c.product();
    await c.receive(wh, [{ product_id: p, qty: 10, price: 100 }]);
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: wh, items: [{ product_id: p, qty, price: 150 }] }), 201);
    expect(so).toMatchObject({ delivery_status: 'not_delivered', billing_status: 'not_billed' });
    await act('sales_order', so.id, 'approve');
    return { p, so };
  };
  const deliver = async (so: Row, qty: number): Promise<Row> => {
    const d = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id], lines: [{ source_line_id: so.items[0].id, qty }] }), 201);
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: wh }));
    return act('delivery_order', d.id, 'approve');
  };
  const invoice = async (so: Row, qty?: number): Promise<Row> => {
    const body = { ids: [so.id], ...(qty === undefined ? {} : { lines: [{ source_line_id: so.items[0].id, qty }] }) };
    const iv = await c.ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, body), 201);
    return act('tax_invoice', iv.id, 'issue');
  };

  it('a tax invoice bills the order but keeps its booking; delivering it then completes the order and releases the booking', async () => {
    const { p, so } = await order(3);
    expect(await booked(p)).toBe(3);
    await invoice(so);
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'not_delivered', billing_status: 'billed' });
    expect(await booked(p)).toBe(3);
    await deliver(so, 3);
    expect(await statuses(so.id)).toEqual({ status: 'completed', delivery_status: 'delivered', billing_status: 'billed' });
    expect(await booked(p)).toBe(0);
  });

  it('delivered first, then invoiced in two parts: completed only with the last invoice, and cancelling it reopens the order', async () => {
    const { p, so } = await order(3);
    await deliver(so, 1);
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'partly_delivered', billing_status: 'not_billed' });
    expect(await booked(p)).toBe(2);
    await deliver(so, 2);
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'delivered', billing_status: 'not_billed' });
    expect(await booked(p)).toBe(0);
    await invoice(so, 2);
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'delivered', billing_status: 'partly_billed' });
    const last = await invoice(so, 1);
    expect(await statuses(so.id)).toEqual({ status: 'completed', delivery_status: 'delivered', billing_status: 'billed' });
    await act('tax_invoice', last.id, 'cancel');
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'delivered', billing_status: 'partly_billed' });
    expect(await booked(p)).toBe(0);
  });

  it('cancelling every delivery of an invoiced order books its stock again; cancelling the invoice too returns it to approved', async () => {
    const { p, so } = await order(2);
    const d = await deliver(so, 2);
    const iv = await invoice(so);
    expect((await statuses(so.id)).status).toBe('completed');
    await act('delivery_order', d.id, 'cancel');
    expect(await statuses(so.id)).toEqual({ status: 'in_progress', delivery_status: 'not_delivered', billing_status: 'billed' });
    expect(await booked(p)).toBe(2);
    await act('tax_invoice', iv.id, 'cancel');
    expect(await statuses(so.id)).toEqual({ status: 'approved', delivery_status: 'not_delivered', billing_status: 'not_billed' });
  });

  it('closing an order releases what is left undelivered and stops further deliveries and invoices', async () => {
    const { p, so } = await order(3);
    expectError(await c.action('sales_order', (await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, items: [{ product_id: p, qty: 1, price: 1 }] }), 201)).id, 'close'), 409, 'INVALID_TRANSITION');
    const d = await deliver(so, 2);
    expect(await booked(p)).toBe(1);
    const closed = await act('sales_order', so.id, 'close');
    expect(closed).toMatchObject({ status: 'closed', delivery_status: 'partly_delivered', billing_status: 'not_billed' });
    expect(await booked(p)).toBe(0);
    expectError(await c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id] }), 409, 'INVALID_TRANSITION');
    expectError(await c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 409, 'INVALID_TRANSITION');
    // a delivery cancelled after the close gives its stock back; the delivery status follows, the order stays closed
    await act('delivery_order', d.id, 'cancel');
    expect(await statuses(so.id)).toEqual({ status: 'closed', delivery_status: 'not_delivered', billing_status: 'not_billed' });
    expect(await booked(p)).toBe(0);
    expectError(await c.action('sales_order', so.id, 'approve'), 409, 'INVALID_TRANSITION');
  });

  it('an in-progress order closes too; a cancelled order books nothing', async () => {
    const { p, so } = await order(3);
    await invoice(so, 1);
    expect((await statuses(so.id)).status).toBe('in_progress');
    await act('sales_order', so.id, 'close');
    expect(await booked(p)).toBe(0);
    const other = await order(4);
    expect(await booked(other.p)).toBe(4);
    await act('sales_order', other.so.id, 'cancel');
    expect(await booked(other.p)).toBe(0);
  });

  it('a delivery and a tax invoice posted at the same moment still complete the order', async () => {
    const drafts: { so: Row; d: Row; iv: Row }[] = [];
    for (let i = 0; i < 12; i++) {
      const { so } = await order(1);
      const d = await c.ok(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id] }), 201);
      await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: wh }));
      const iv = await c.ok(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] }), 201);
      drafts.push({ so, d, iv });
    }
    await Promise.all(drafts.flatMap(({ d, iv }) => [act('delivery_order', d.id, 'approve'), act('tax_invoice', iv.id, 'issue')]));
    for (const { so } of drafts) expect(await statuses(so.id)).toEqual({ status: 'completed', delivery_status: 'delivered', billing_status: 'billed' });
  });

  it('no plain write sets a delivery or billing status', async () => {
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, items: [{ product_id: await c.product(), qty: 1, price: 1 }] }), 201);
    expectError(await c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { delivery_status: 'delivered' }), 400, 'READ_ONLY_FIELD');
    expectError(await c.call('PATCH', `/api/sales_order/${so.id}`, c.admin, { billing_status: 'billed' }), 400, 'READ_ONLY_FIELD');
    expectError(await c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, billing_status: 'billed', items: [] }), 400, 'READ_ONLY_FIELD');
  });

  it('rows from before the statuses existed get them from the progress counters when the server starts, and an order completed by its invoice alone is in progress again', async () => {
    const k = t.db.kysely;
    const invoiced = await order(3);
    await invoice(invoiced.so);
    const half = await order(4);
    await deliver(half.so, 1);
    const both = await order(1);
    await deliver(both.so, 1);
    await invoice(both.so);
    const fresh = await order(2);
    const ids = [invoiced.so.id, half.so.id, both.so.id, fresh.so.id];
    // what the database looked like before: no statuses, and the invoiced order completed by its invoice
    await k.updateTable('sales_order').set({ delivery_status: null, billing_status: null }).where('id', 'in', ids).execute();
    await k.updateTable('sales_order').set({ status: 'completed' }).where('id', '=', invoiced.so.id).execute();
    expect(await booked(invoiced.p)).toBe(0);
    await prepareDatabase(t.db, t.registry);
    expect(await statuses(invoiced.so.id)).toEqual({ status: 'in_progress', delivery_status: 'not_delivered', billing_status: 'billed' });
    expect(await statuses(half.so.id)).toEqual({ status: 'in_progress', delivery_status: 'partly_delivered', billing_status: 'not_billed' });
    expect(await statuses(both.so.id)).toEqual({ status: 'completed', delivery_status: 'delivered', billing_status: 'billed' });
    expect(await statuses(fresh.so.id)).toEqual({ status: 'approved', delivery_status: 'not_delivered', billing_status: 'not_billed' });
    expect(await booked(invoiced.p)).toBe(3);
    // nothing is empty any more: a second start changes nothing
    await k.updateTable('sales_order').set({ status: 'completed' }).where('id', '=', fresh.so.id).execute();
    await prepareDatabase(t.db, t.registry);
    expect((await statuses(fresh.so.id)).status).toBe('completed');
    await k.updateTable('sales_order').set({ status: 'approved' }).where('id', '=', fresh.so.id).execute();
  });
});
