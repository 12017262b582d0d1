/**
 * Issue 44 §9 / 45 §1: a value with more decimals than its field keeps, or money past 999,999,999,999.99,
 * is 400 naming the field (create-from quantities too, which were rounded: 1.005 → 1.00), nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';
import { DOCUMENT_FIXTURES } from '../support/document-fixtures.ts';

describe.each(testDialects())('decimals and bounds on %s', (dialect) => {
  const schemas = tempSchemasDir(DOCUMENT_FIXTURES, true);
  let t: TestApp;
  const call = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: { ...t.headers, 'accept-language': 'th' }, payload: payload as never });
  beforeAll(async () => { t = await createTestApp(dialect, schemas.dir); });
  afterAll(async () => { await t?.close(); schemas.remove(); });

  it('money past its bound and a create-from quantity with too many decimals: 400 naming the field, in Thai', async () => {
    const big = await call('/api/tf_order', { doc_no: 'B-1', customer_name: 'ก', items: [{ description: 'x', qty: 1, price: 1_000_000_000_000 }] });
    expect(big.statusCode, big.body).toBe(400);
    expect(big.json().error.details.fields).toEqual([expect.objectContaining({ field: 'items.0.price', code: 'maximum' })]);
    const o = await call('/api/tf_order', { doc_no: 'B-2', customer_name: 'ก', items: [{ description: 'x', qty: 3, price: 999_999_999_999.99 }] });
    expect(o.statusCode, o.body).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/api/tf_order/${o.json().data.id}/actions/approve`, headers: t.headers })).statusCode).toBe(200);
    const line = o.json().data.items[0].id;
    const before = (await t.app.inject({ method: 'GET', url: '/api/tf_delivery', headers: t.headers })).json().data.length;
    const res = await call('/api/tf_delivery/from/tf_order', { ids: [o.json().data.id], lines: [{ source_line_id: line, qty: 1.00005 }] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'lines.0.qty', code: 'x-scale' })]);
    expect(res.json().error.message).toMatch(/[\u0E00-\u0E7F]/);
    expect((await t.app.inject({ method: 'GET', url: '/api/tf_delivery', headers: t.headers })).json().data.length).toBe(before);
  });
});
