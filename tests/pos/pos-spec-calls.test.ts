/**
 * The spec's two retail calls (issue 33 §1), declared as list aliases in the schema files:
 * GET /api/sales_channel_pos?is_deleted=0 (type, default all) and GET /api/promotion/list?is_delete=0|1 (is_publish).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q } from '../support/security-fixtures.ts';

describe.each(testDialects())('POS spec calls on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  const codes = async (url: string) => {
    const res = await c.call('GET', url, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { code: string }[]).map((r) => r.code).sort();
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    await c.make('sales_channels', { code: 'SHOP', name_th: 'หน้าร้าน', channel_type: 'pos' });
    await c.make('sales_channels', { code: 'WEB', name_th: 'เว็บไซต์', channel_type: 'online' });
    const gone = await c.make('sales_channels', { code: 'OLD', name_th: 'ช่องทางเก่า', channel_type: 'pos' });
    expect((await c.call('DELETE', `/api/sales_channels/${gone}`, c.admin)).statusCode).toBe(200);
    const promo = (code: string, is_publish: boolean) => c.make('promotion', {
      code, name: `โปร ${code}`, start_date: '2026-11-01', end_date: '2026-12-31', discount_type: 'percent', discount_value: 10, is_publish,
    });
    await promo('PUB', true);
    await promo('DRAFT', false);
    const old = await promo('GONE', true);
    expect((await c.call('DELETE', `/api/promotion/${old}`, c.admin)).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('lists live sales channels of every type by default, or of one type', async () => {
    expect(await codes('/api/sales_channel_pos?is_deleted=0')).toEqual(['SHOP', 'WEB']);
    expect(await codes('/api/sales_channel_pos?is_deleted=0&type=all')).toEqual(['SHOP', 'WEB']);
    expect(await codes('/api/sales_channel_pos?is_deleted=0&type=pos')).toEqual(['SHOP']);
    expect(await codes('/api/sales_channel_pos?is_deleted=1')).toEqual(['OLD']);
    expect(await codes(`/api/sales_channel_pos?is_deleted=0&filter=${q({ code: { _eq: 'WEB' } })}`)).toEqual(['WEB']);
  });

  it('lists promotions live or deleted, published or not', async () => {
    expect(await codes('/api/promotion/list?is_delete=0')).toEqual(['DRAFT', 'PUB']);
    expect(await codes('/api/promotion/list?is_delete=1')).toEqual(['GONE']);
    expect(await codes('/api/promotion/list?is_delete=0&is_publish=1')).toEqual(['PUB']);
    expect(await codes('/api/promotion/list?is_delete=0&is_publish=0')).toEqual(['DRAFT']);
  });

  it('refuses bad parameter values with INVALID_QUERY, and needs view on the entity', async () => {
    expectError(await c.call('GET', '/api/sales_channel_pos?is_deleted=2', c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', '/api/sales_channel_pos?type=shop', c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', '/api/promotion/list?is_publish=yes', c.admin), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', '/api/promotion/list?colour=red', c.admin), 400, 'INVALID_QUERY');
    const role = await c.role('ไม่มีสิทธิ์โปร', { sales_channels: { view: true, email: false, print: false, export: false, edit: false } });
    const type = await c.userType('ไม่มีสิทธิ์โปร', role);
    await c.user('nopromo', { role_id: role, user_type_id: type });
    const as = await c.signIn('nopromo');
    expect((await c.call('GET', '/api/promotion/list?is_delete=0', as)).statusCode).toBe(403);
    expect((await c.call('GET', '/api/sales_channel_pos?is_deleted=0', as)).statusCode).toBe(200);
  });
});

describe('the sale in the OpenAPI document', () => {
  it('describes POST /api/pos_order by its contract, with the Idempotency-Key header', async () => {
    const t = await createTestApp('sqlite');
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
      const op = doc.paths['/api/pos_order'].post;
      expect(op.parameters).toEqual([expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true })]);
      expect(Object.keys(op.requestBody.content['application/json'].schema.properties).slice(0, 3)).toEqual(['pos_shift_id', 'items', 'payments']);
    } finally {
      await t.close();
    }
  });
});
