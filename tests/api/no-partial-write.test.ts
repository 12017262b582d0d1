/**
 * A write with lines is all or nothing: when line 2 is bad, neither the
 * header nor line 1 is stored, whether the check fails before writing
 * (validation, missing link) or inside the transaction (a database constraint).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { label, tempSchemasDir } from '../support/temp-schemas.ts';
import { sampleRecord } from '../support/sample-records.ts';

const item = { name: 'pw_item', label: label('Item'), kind: 'master', titleField: 'name', fields: { name: { type: 'string', label: label('Name'), required: true } } };
const order = {
  name: 'pw_order', label: label('Order'), kind: 'document', titleField: 'ref',
  fields: {
    ref: { type: 'string', label: label('Ref'), required: true, unique: true },
    lines: { type: 'lines', entity: 'pw_order_line', label: label('Lines') },
  },
};
const orderLine = {
  name: 'pw_order_line', label: label('Line'), kind: 'lines', titleField: 'serial', parent: { entity: 'pw_order', field: 'pw_order_id' },
  fields: {
    item_id: { type: 'link', entity: 'pw_item', label: label('Item'), required: true },
    serial: { type: 'string', label: label('Serial'), required: true, unique: true },
    qty: { type: 'integer', label: label('Qty'), required: true, min: 1 },
  },
};

describe.each(testDialects())('no partial writes on %s', (dialect) => {
  const schemas = tempSchemasDir([item, order, orderLine], true);
  let t: TestApp;
  let itemId: number;
  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const count = async (table: string) =>
    Number((await t.db.kysely.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const counts = async () => ({ orders: await count('pw_order'), lines: await count('pw_order_line') });

  beforeAll(async () => {
    t = await createTestApp(dialect, schemas.dir);
    itemId = (await call('POST', '/api/pw_item', { name: 'screw' })).json().data.id;
  });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  const line = (serial: string, extra: Record<string, unknown> = {}) => ({ item_id: itemId, serial, qty: 1, ...extra });

  it('a line linking to a missing record: 400, nothing stored', async () => {
    const before = await counts();
    const res = await call('POST', '/api/pw_order', { ref: 'O-1', lines: [line('S-1'), line('S-2', { item_id: 999_999 })] });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_FAILED');
    expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'lines.1.item_id', code: 'link' })]);
    expect(await counts()).toEqual(before);
  });

  it('an invalid value in line 2: 400 naming the line, nothing stored', async () => {
    const before = await counts();
    const res = await call('POST', '/api/pw_order', { ref: 'O-2', lines: [line('S-3'), line('S-4', { qty: 0 })] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields).toEqual([{ field: 'lines.1.qty', code: 'minimum', message: 'must be at least 1', params: { limit: 1 } }]);
    expect(await counts()).toEqual(before);
  });

  it('line 2 breaking a database constraint after header and line 1 were written: rolled back', async () => {
    const before = await counts();
    const res = await call('POST', '/api/pw_order', { ref: 'O-3', lines: [line('DUP'), line('DUP')] });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('CONFLICT');
    expect(res.json().error.details.fields).toEqual([{ field: 'pw_order_line.serial', code: 'unique', message: 'is already used by another record' }]);
    expect(await counts()).toEqual(before);
    const list = await call('GET', `/api/pw_order?filter=${encodeURIComponent('{"ref":{"_eq":"O-3"}}')}`);
    expect(list.json().data).toEqual([]);
  });

  it('a failed update leaves the header and the old lines as they were', async () => {
    const created = await call('POST', '/api/pw_order', { ref: 'O-4', lines: [line('K-1'), line('K-2', { qty: 2 })] });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    const stored = (await call('GET', `/api/pw_order/${id}`)).json().data;
    const before = await counts();

    // database constraint inside the transaction (after the header update)
    const put = await call('PUT', `/api/pw_order/${id}`, { ref: 'O-4-changed', lines: [line('K-9'), line('K-9')] });
    expect(put.statusCode, put.body).toBe(409);

    // a line id of another document, found while writing lines
    const other = (await call('POST', '/api/pw_order', { ref: 'O-5', lines: [line('Z-1')] })).json().data;
    const patch = await call('PATCH', `/api/pw_order/${id}`, {
      ref: 'O-4-changed', lines: [{ ...line('K-1', { qty: 7 }), id: stored.lines[0].id }, { ...line('Z-1'), id: other.lines[0].id }],
    });
    expect(patch.statusCode, patch.body).toBe(400);
    expect(patch.json().error.details.fields).toEqual([expect.objectContaining({ field: 'lines.1.id' })]);

    expect((await call('GET', `/api/pw_order/${id}`)).json().data).toEqual(stored);
    expect(await counts()).toEqual({ orders: before.orders + 1, lines: before.lines + 1 });
  });

  it('the real price_list: an item linking to a missing product stores neither list nor items', async () => {
    const priceList = t.registry.get('price_list')!;
    const linesField = Object.entries(priceList.fields).find(([, f]) => f.type === 'lines' && f.entity === 'price_list_item')?.[0];
    expect(linesField).toBeDefined();
    const body = await sampleRecord(priceList, t.registry, 1, { app: t.app, headers: t.headers });
    const items = body[linesField!] as Record<string, unknown>[];
    items[1] = { ...items[1], product_id: 999_999 };
    const before = { lists: await count('price_list'), items: await count('price_list_item') };
    const res = await call('POST', '/api/price_list', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: `${linesField}.1.product_id`, code: 'link' })]);
    expect({ lists: await count('price_list'), items: await count('price_list_item') }).toEqual(before);
  });
});
