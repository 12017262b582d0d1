/**
 * Issue 49: the generic get and list answer through compiled writers (server/crud/answer-serializers.ts),
 * kept per entity, schema version, readable fields and `fields=`. A custom field added at run time is in
 * the very next get and list (the version moves, a new writer names it), and gone once removed; a role
 * reads the same answer as the administrator, a role without view reads nothing, and a customer's row
 * scope is kept. Both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q } from '../support/security-fixtures.ts';

describe.each(testDialects())('compiled read answers on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    id = await c.make('customer', { customer_type: 'individual', code: 'CA001', name_th: 'ลูกค้าคอมไพล์' });
  });
  afterAll(async () => t?.close());

  const get = async (url: string, headers = c.admin) => {
    const res = await c.call('GET', url, headers);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return res;
  };

  it('answers a custom field added at run time in the next get and list, and drops it once removed', async () => {
    // the writers for the current version are compiled and kept by these two reads
    const before = (await get(`/api/customer/${id}`)).json().data;
    expect(before).not.toHaveProperty('cf_grade');
    await get(`/api/customer?filter=${q({ id: { _eq: id } })}`);

    const add = await c.call('POST', '/api/custom_field', c.admin, { entity: 'customer', name: 'grade', type: 'string', label: { th: 'เกรด', en: 'Grade' } });
    expect(add.statusCode, add.body).toBe(201);
    const added = (await get(`/api/customer/${id}`)).json().data;
    expect(added).toHaveProperty('cf_grade', null);
    // in the place the column order gives it: after the schema's fields, before the system columns and the lines
    const keys = Object.keys(before);
    keys.splice(keys.indexOf('created_at'), 0, 'cf_grade');
    expect(Object.keys(added)).toEqual(keys);

    expect((await c.call('PATCH', `/api/customer/${id}`, c.admin, { cf_grade: 'A+ "ทอง"' })).statusCode).toBe(200);
    expect((await get(`/api/customer/${id}`)).json().data.cf_grade).toBe('A+ "ทอง"');
    expect((await get(`/api/customer/${id}?fields=code,cf_grade`)).json().data).toEqual({ id, code: 'CA001', cf_grade: 'A+ "ทอง"' });
    const listed = (await get(`/api/customer?filter=${q({ id: { _eq: id } })}`)).json().data;
    expect(listed[0]).toMatchObject({ id, cf_grade: 'A+ "ทอง"' });

    expect((await c.call('DELETE', `/api/custom_field/${add.json().data.id}`, c.admin)).statusCode).toBe(200);
    expect((await get(`/api/customer/${id}`)).json().data).not.toHaveProperty('cf_grade');
    expect((await get(`/api/customer?filter=${q({ id: { _eq: id } })}`)).json().data[0]).not.toHaveProperty('cf_grade');
  });

  it('writes the body JSON.parse reads back as the stored record, for a role as for the administrator', async () => {
    const reader = await c.staff('ca_reader', { customer: { view: true } });
    const asAdmin = await get(`/api/customer/${id}`);
    const asReader = await get(`/api/customer/${id}`, reader.headers);
    expect(asReader.body).toBe(asAdmin.body);
    const row = await t.db.kysely.selectFrom('customer').select(['code', 'name_th']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(asReader.json().data).toMatchObject(row);
    const page = await get(`/api/customer?filter=${q({ id: { _eq: id } })}&meta=total_count`, reader.headers);
    expect(page.json()).toMatchObject({ success: true, data: [{ id, code: 'CA001' }], meta: { total_count: 1 } });
  });

  it('a role without view reads nothing, a customer only its own rows', async () => {
    const none = await c.staff('ca_none', { product: { view: true } });
    expectError(await c.call('GET', `/api/customer/${id}`, none.headers), 403, 'FORBIDDEN');
    expectError(await c.call('GET', '/api/customer', none.headers), 403, 'FORBIDDEN');
    const otherId = await c.make('customer', { customer_type: 'individual', code: 'CA002', name_th: 'ลูกค้าอื่น' });
    const portal = await c.customerUser(id);
    expect((await get(`/api/customer/${id}`, portal.headers)).json().data.id).toBe(id);
    expectError(await c.call('GET', `/api/customer/${otherId}`, portal.headers), 404, 'NOT_FOUND');
    expect((await get('/api/customer', portal.headers)).json().data.map((r: { id: number }) => r.id)).toEqual([id]);
  });
});
