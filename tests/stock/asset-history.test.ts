/**
 * Assets (is_enable_assets): borrow, return, send for modification and get
 * back, each written to asset_movement with who, until when, what and the
 * cost, so the borrowing and modification reports have data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('assets on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let wh: number;
  let staff: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    wh = await c.inventory(await c.company());
    staff = await c.make('staff', { code: c.next('ST'), first_name_th: 'สมชาย', last_name_th: 'ใจดี' });
  });
  afterAll(async () => t?.close());

  const history = async (asset: number) => (await c.ok(c.call('GET', `/api/asset_movement?filter=${encodeURIComponent(JSON.stringify({ asset_id: { _eq: asset } }))}&sort=id`, c.admin))) as unknown as Row[];

  it('are refused while is_enable_assets is off', async () => {
    await c.settings({ is_enable_assets: false });
    expectError(await c.call('POST', '/api/asset', c.admin, { code: 'A-0', name: 'สว่าน' }), 409, 'FEATURE_DISABLED');
  });

  it('borrow, return, modify and its cost are each recorded', async () => {
    await c.settings({ is_enable_assets: true });
    const a = await c.make('asset', { code: c.next('A'), name: 'รถโฟล์คลิฟท์', inventory_id: wh, cost: 350000 });
    expectError(await c.action('asset', a, 'borrow'), 400, 'VALIDATION_FAILED');
    const borrowed = await c.ok(c.call('POST', `/api/asset/${a}/actions/borrow`, c.admin, { holder_staff_id: staff, borrowed_until: '2026-12-01', action_note: 'ใช้ที่สาขา 2' }));
    expect(borrowed).toMatchObject({ status: 'borrowed', holder_staff_id: staff, borrowed_until: '2026-12-01' });
    expectError(await c.action('asset', a, 'modify'), 409, 'INVALID_TRANSITION');
    const back = await c.ok(c.action('asset', a, 'return'));
    expect(back).toMatchObject({ status: 'available', holder_staff_id: null, borrowed_until: null });
    await c.ok(c.call('POST', `/api/asset/${a}/actions/modify`, c.admin, { modify_description: 'เปลี่ยนยาง' }));
    const done = await c.ok(c.call('POST', `/api/asset/${a}/actions/finish_modify`, c.admin, { modify_cost: 4250.5 }));
    expect(done).toMatchObject({ status: 'available', modify_description: null, modify_cost: null });
    expect((await history(a)).map((m) => [m.action, m.staff_id, m.due_date, m.description, m.cost, m.note, m.inventory_id])).toEqual([
      ['borrow', staff, '2026-12-01', null, null, 'ใช้ที่สาขา 2', wh],
      ['return', staff, null, null, null, null, wh],
      ['modify', null, null, 'เปลี่ยนยาง', null, null, wh],
      ['finish_modify', null, null, 'เปลี่ยนยาง', 4250.5, null, wh],
    ]);
  });
});
