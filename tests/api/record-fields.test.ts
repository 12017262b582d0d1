import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

describe.each(testDialects())('reading one record with fields (%s)', (dialect) => {
  let t: TestApp;
  let priceList: number;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const product = (await t.app.inject({ method: 'POST', url: '/api/product', headers: t.headers, payload: { code: 'P1', name_th: 'ฟิล์ม', product_class: 'product', unit: 'ม้วน', vat_type: 'vat7' } })).json().data.id;
    const res = await t.app.inject({ method: 'POST', url: '/api/price_list', headers: t.headers, payload: { code: 'PL1', name_th: 'ราคาส่ง', items: [{ product_id: product, unit_price: 120.5 }] } });
    expect(res.statusCode, res.body).toBe(201);
    priceList = res.json().data.id;
  });
  afterAll(async () => t?.close());

  const get = (query: string) => t.app.inject({ method: 'GET', url: `/api/price_list/${priceList}${query}`, headers: t.headers });

  it('returns only the named columns, link names through dots, and lines named in fields', async () => {
    const res = await get('?fields=code,items,items');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(Object.keys(data).sort()).toEqual(['code', 'id', 'items']);
    expect(data.items).toHaveLength(1);
    expect(data.items[0].unit_price).toBe(120.5);
    const only = (await get('?fields=code')).json().data;
    expect(only).toEqual({ id: priceList, code: 'PL1' });
    const lines = (await get('?fields=items')).json().data;
    expect(Object.keys(lines).sort()).toEqual(['id', 'items']);
  });

  it('refuses unknown names in fields', async () => {
    const res = await get('?fields=code,nope');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('UNKNOWN_FIELD');
  });

  it('tells the caller which related entities it may read', async () => {
    const meta = (await t.app.inject({ method: 'GET', url: '/api/meta/entities/price_list', headers: t.headers })).json().data;
    expect(meta.readable).toEqual(expect.arrayContaining(Object.keys(meta.related)));
  });
});
