/**
 * Issue 51 §2: pay-in and pay-out at the register. POST /api/pos_shift/{id}/cash { direction, amount, reason }
 * records cash put into or taken out of an open shift's drawer with its reason (a line of the shift's
 * `cash_moves`); the X and Z reports show the sums and the reasons, and the expected cash at the close counts them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';

describe.each(testDialects())('pay-in and pay-out of a shift on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let shop: Awaited<ReturnType<typeof posShop>>;
  let shift: number;
  const move = (body: unknown, headers: Record<string, string> = c.admin, id = shift) => c.call('POST', `/api/pos_shift/${id}/cash`, headers, body);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    shop = await posShop(c);
    const tape = await c.product({ price: 120 });
    await c.receive(shop.inv, [{ product_id: tape, qty: 5, price: 80 }]);
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 500 }), 201)).id as number;
    // 120.00 paid with 200.00: the drawer keeps 120.00
    const sale = await c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: tape, qty: 1 }], payments: [{ payment_method_id: shop.cash, amount: 200 }] }, { headers: { ...c.admin, 'idempotency-key': `cash-move-${dialect}-1` } });
    expect(sale.statusCode, sale.body).toBe(201);
  });
  afterAll(async () => t?.close());

  it('records a pay-in and a pay-out with their reasons on the open shift', async () => {
    const payIn = await move({ direction: 'in', amount: 300, reason: 'แลกเหรียญจากธนาคาร' });
    expect(payIn.statusCode, payIn.body).toBe(201);
    expect(payIn.json().meta.move).toMatchObject({ direction: 'in', amount: 300, reason: 'แลกเหรียญจากธนาคาร' });
    const payOut = await move({ direction: 'out', amount: '50.25', reason: 'ซื้อน้ำแข็งหน้าร้าน' });
    expect(payOut.statusCode, payOut.body).toBe(201);
    const lines = payOut.json().data.cash_moves;
    expect(lines).toHaveLength(2);
    expect(lines.map((l: Record<string, unknown>) => [l.direction, l.amount, l.reason])).toEqual([['in', 300, 'แลกเหรียญจากธนาคาร'], ['out', 50.25, 'ซื้อน้ำแข็งหน้าร้าน']]);
    expect(lines[0].user_id).toBeTruthy();
  });

  it('counts them in the X report and its expected cash: 500 + 120 + 300 − 50.25 = 869.75', async () => {
    const x = (await c.call('GET', `/api/pos_shift/${shift}/report`, c.admin)).json().data;
    expect(x).toMatchObject({ kind: 'X', cash_taken: 120, pay_in: 300, pay_out: 50.25, expected_cash: 869.75 });
    expect(x.cash_moves.map((m: Record<string, unknown>) => m.reason)).toEqual(['แลกเหรียญจากธนาคาร', 'ซื้อน้ำแข็งหน้าร้าน']);
  });

  it('refuses a pay-out over what the drawer holds, a missing reason, a bad direction or amount (400, in Thai), and a caller who may not edit shifts (403)', async () => {
    const over = await move({ direction: 'out', amount: 869.76, reason: 'มากเกิน' }, { ...c.admin, 'accept-language': 'th' });
    expectError(over, 400, 'VALIDATION_FAILED');
    expect(over.json().error.details.fields[0]).toMatchObject({ field: 'amount', code: 'over_drawer', message: expect.stringContaining('869.75') });
    expect(over.json().error.details.fields[0].message).toContain('ลิ้นชัก');
    const bad = await move({ direction: 'sideways', amount: -5, reason: '  ' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().error.details.fields.map((f: Record<string, unknown>) => `${String(f.field)}:${String(f.code)}`).sort()).toEqual(['amount:positive', 'direction:enum', 'reason:required']);
    expectError(await move({ direction: 'in', amount: 1, reason: 'x', cashier_id: 1 }), 400, 'UNKNOWN_FIELD');
    expectError(await move({ direction: 'in', amount: 1, reason: 'x' }, c.admin, 999999), 404, 'NOT_FOUND');
    const viewer = (await c.staff(`cash_viewer_${dialect}`, { pos_shift: { view: true }, pos: { view: true } })).headers;
    expectError(await move({ direction: 'in', amount: 1, reason: 'ทดสอบ' }, viewer), 403, 'FORBIDDEN');
    // the lines are the route's: not written through the shift's own create or update
    const patched = await c.call('PATCH', `/api/pos_shift/${shift}`, c.admin, { cash_moves: [{ direction: 'in', amount: 1000, reason: 'แอบใส่' }] });
    expect(patched.statusCode).toBeGreaterThanOrEqual(400);
    expect((await c.call('GET', `/api/pos_shift/${shift}`, c.admin)).json().data.cash_moves).toHaveLength(2);
  });

  it('closes with the moves in the expected cash, reports them in the Z report, and takes none once closed (409)', async () => {
    const closed = await c.call('POST', `/api/pos_shift/${shift}/actions/close`, c.admin, { counted_cash: 869.75 });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().data).toMatchObject({ cash_sales: 120, expected_cash: 869.75, difference: 0 });
    const z = (await c.call('GET', `/api/pos_shift/${shift}/report`, c.admin)).json().data;
    expect(z).toMatchObject({ kind: 'Z', pay_in: 300, pay_out: 50.25, expected_cash: 869.75, counted_cash: 869.75, difference: 0 });
    expectError(await move({ direction: 'in', amount: 10, reason: 'หลังปิดกะ' }), 409, 'INVALID_TRANSITION');
  });
});
