/**
 * The document engine's "create from" and posting, on a pair of throw-away
 * documents (an order and its deliveries): remaining quantities carried over,
 * partial processing, over-processing refused (also under concurrency),
 * cancellation giving back, and the source's status following.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';
import { DOCUMENT_FIXTURES } from '../support/document-fixtures.ts';

describe.each(testDialects())('create from and posting on %s', (dialect) => {
  const schemas = tempSchemasDir(DOCUMENT_FIXTURES, true);
  let t: TestApp;
  let seq = 0;
  type Res = Awaited<ReturnType<TestApp['app']['inject']>>;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<Res> =>
    t.app.inject({ method, url, headers: t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const ok = (res: Res, status = 200) => { expect(res.statusCode, res.body).toBe(status); return res.json().data; };
  const fail = (res: Res, status: number, code: string) => { expect(res.statusCode, res.body).toBe(status); expect(res.json().error.code).toBe(code); return res.json().error; };

  const approvedOrder = async (customer = 'ลูกค้า ก', qtys = [10, 4.5]) => {
    const o = ok(await call('POST', '/api/tf_order', { doc_no: `SO-${++seq}`, customer_name: customer, items: qtys.map((qty, i) => ({ description: `สินค้า ${i + 1}`, qty, price: 120.5 })) }), 201);
    return ok(await call('POST', `/api/tf_order/${o.id}/actions/approve`));
  };
  const status = async (id: number) => (ok(await call('GET', `/api/tf_order/${id}`))).status;

  beforeAll(async () => { t = await createTestApp(dialect, schemas.dir); });
  afterAll(async () => { await t?.close(); schemas.remove(); });

  it('carries every open quantity with its source line, and only posting counts it', async () => {
    const o = await approvedOrder();
    const d = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    expect(d).toMatchObject({ customer_name: 'ลูกค้า ก', status: 'draft' });
    expect(d.items.map((l: Record<string, unknown>) => [l.description, l.qty, l.price, l.source_line_id])).toEqual(o.items.map((l: Record<string, unknown>) => [l.description, l.qty, 120.5, l.id]));
    expect(await status(o.id)).toBe('approved');
    ok(await call('POST', `/api/tf_delivery/${d.id}/actions/approve`));
    expect(await status(o.id)).toBe('completed');
    fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 409, 'OVER_PROCESSED');
  });

  it('processes part of a line, leaves the rest open, and refuses more than is left', async () => {
    const o = await approvedOrder();
    const [a, b] = o.items.map((l: { id: number }) => l.id);
    const first = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id], lines: [{ source_line_id: a, qty: 3 }] }), 201);
    expect(first.items).toHaveLength(1);
    ok(await call('POST', `/api/tf_delivery/${first.id}/actions/approve`));
    expect(await status(o.id)).toBe('partial');
    const over = fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id], lines: [{ source_line_id: a, qty: 7.0001 }] }), 409, 'OVER_PROCESSED');
    expect(over.details).toMatchObject({ source_line_id: a, remaining: 7 });
    const rest = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    expect(rest.items.map((l: { source_line_id: number; qty: number }) => [l.source_line_id, l.qty])).toEqual([[a, 7], [b, 4.5]]);
    ok(await call('POST', `/api/tf_delivery/${rest.id}/actions/approve`));
    expect(await status(o.id)).toBe('completed');
  });

  it('two drafts over the same quantity: the first posting wins, the second is refused whole', async () => {
    const o = await approvedOrder('ลูกค้า ข', [5]);
    const d1 = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    const d2 = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    ok(await call('POST', `/api/tf_delivery/${d1.id}/actions/approve`));
    const err = fail(await call('POST', `/api/tf_delivery/${d2.id}/actions/approve`), 409, 'OVER_PROCESSED');
    expect(err.message).toContain('items.0');
    expect((ok(await call('GET', `/api/tf_delivery/${d2.id}`))).status).toBe('draft');
  });

  it('cancelling a posted delivery gives its quantities back and the order reopens', async () => {
    const o = await approvedOrder('ลูกค้า ค', [6]);
    const d = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    ok(await call('POST', `/api/tf_delivery/${d.id}/actions/approve`));
    expect(await status(o.id)).toBe('completed');
    ok(await call('POST', `/api/tf_delivery/${d.id}/actions/cancel`));
    expect(await status(o.id)).toBe('approved');
    const again = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    expect(again.items[0].qty).toBe(6);
  });

  it('parallel postings never deliver more than ordered', async () => {
    const o = await approvedOrder('ลูกค้า ง', [10]);
    const line = o.items[0].id;
    const drafts = [];
    for (let i = 0; i < 25; i++) drafts.push(ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id], lines: [{ source_line_id: line, qty: 1 }] }), 201));
    const results = await Promise.all(drafts.map((d) => call('POST', `/api/tf_delivery/${d.id}/actions/approve`)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(10);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'OVER_PROCESSED')).toBe(true);
    expect(results.filter((r) => r.statusCode !== 200 && r.statusCode !== 409)).toEqual([]);
    expect(await status(o.id)).toBe('completed');
  });

  // posting judges all of a document's lines at once (a few statements per document): these hold it to what a line-by-line posting did
  it('a line in the middle that takes too much refuses the whole posting, names that line, and counts nothing', async () => {
    const o = await approvedOrder('ลูกค้า ซ', [2, 3, 4, 5]);
    const ids = o.items.map((l: { id: number }) => l.id);
    const d = ok(await call('POST', '/api/tf_delivery', { customer_name: 'ลูกค้า ซ', items: [
      { description: 'a', qty: 2, price: 1, source_line_id: ids[0] }, { description: 'b', qty: 1, price: 1, source_line_id: ids[1] },
      { description: 'c', qty: 4.5, price: 1, source_line_id: ids[2] }, { description: 'd', qty: 5, price: 1, source_line_id: ids[3] },
    ] }), 201);
    const err = fail(await call('POST', `/api/tf_delivery/${d.id}/actions/approve`), 409, 'OVER_PROCESSED');
    expect(err.details).toMatchObject({ line: 'items.2', source_line_id: ids[2], remaining: 4, asked: 4.5 });
    expect((ok(await call('GET', `/api/tf_delivery/${d.id}`))).status).toBe('draft');
    expect(await status(o.id)).toBe('approved');
    // nothing was counted: the whole order is still open
    const rest = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    expect(rest.items.map((l: { qty: number }) => l.qty)).toEqual([2, 3, 4, 5]);
  });

  it('two lines of one document on the same source line count together, the second judged on what the first left', async () => {
    const o = await approvedOrder('ลูกค้า ฌ', [5, 1]);
    const [a, b] = o.items.map((l: { id: number }) => l.id);
    const lines = (qtys: number[]) => qtys.map((qty, i) => ({ description: `x${i}`, qty, price: 1, source_line_id: i === 1 ? b : a }));
    const over = ok(await call('POST', '/api/tf_delivery', { customer_name: 'ลูกค้า ฌ', items: lines([3, 1, 2.5]) }), 201);
    const err = fail(await call('POST', `/api/tf_delivery/${over.id}/actions/approve`), 409, 'OVER_PROCESSED');
    expect(err.details).toMatchObject({ line: 'items.2', source_line_id: a, remaining: 2, asked: 2.5 });
    expect(await status(o.id)).toBe('approved');
    const fits = ok(await call('POST', '/api/tf_delivery', { customer_name: 'ลูกค้า ฌ', items: lines([3, 1, 2]) }), 201);
    ok(await call('POST', `/api/tf_delivery/${fits.id}/actions/approve`));
    expect(await status(o.id)).toBe('completed');
    ok(await call('POST', `/api/tf_delivery/${fits.id}/actions/cancel`));
    expect(await status(o.id)).toBe('approved');
    const again = ok(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [o.id] }), 201);
    expect(again.items.map((l: { qty: number }) => l.qty)).toEqual([5, 1]);
  });

  it('parallel postings over the same source lines in opposite orders never deadlock nor over-deliver', async () => {
    const o = await approvedOrder('ลูกค้า ญ', [6, 6]);
    const [a, b] = o.items.map((l: { id: number }) => l.id);
    const drafts = [];
    for (let i = 0; i < 10; i++) {
      const order = i % 2 ? [a, b] : [b, a];
      drafts.push(ok(await call('POST', '/api/tf_delivery', { customer_name: 'ลูกค้า ญ', items: order.map((id) => ({ description: 'x', qty: 1, price: 1, source_line_id: id })) }), 201));
    }
    const results = await Promise.all(drafts.map((d) => call('POST', `/api/tf_delivery/${d.id}/actions/approve`)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([...Array(6).fill(200), ...Array(4).fill(409)]);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'OVER_PROCESSED')).toBe(true);
    expect(await status(o.id)).toBe('completed');
  });

  it('refuses drafts, mixed customers, foreign lines and forged source lines', async () => {
    const draft = ok(await call('POST', '/api/tf_order', { doc_no: `SO-${++seq}`, customer_name: 'ลูกค้า จ', items: [{ description: 'x', qty: 1, price: 1 }] }), 201);
    fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [draft.id] }), 409, 'INVALID_TRANSITION');
    const a = await approvedOrder('ลูกค้า ฉ', [1]);
    const b = await approvedOrder('ลูกค้า ช', [1]);
    fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [a.id, b.id] }), 400, 'VALIDATION_FAILED');
    fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [a.id], lines: [{ source_line_id: b.items[0].id, qty: 1 }] }), 400, 'VALIDATION_FAILED');
    fail(await call('POST', '/api/tf_delivery/from/tf_order', { ids: [] }), 400, 'VALIDATION_FAILED');
    fail(await call('POST', '/api/tf_delivery/from/nothing', { ids: [a.id] }), 404, 'NOT_FOUND');
    // a plain create naming another customer's order line is refused when it would post
    const forged = ok(await call('POST', '/api/tf_delivery', { customer_name: 'ลูกค้า ฉ', items: [{ description: 'x', qty: 1, price: 1, source_line_id: b.items[0].id }] }), 201);
    fail(await call('POST', `/api/tf_delivery/${forged.id}/actions/approve`), 400, 'VALIDATION_FAILED');
    expect(await status(b.id)).toBe('approved');
  });
});
