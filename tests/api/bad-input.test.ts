import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

/**
 * Hostile and malformed input of many shapes, sent to every entity: none may
 * answer 5xx; a refusal comes in the error envelope and stores nothing.
 * (A few shapes are harmless, e.g. an empty filter, and may succeed.)
 */
const QUERIES = [
  'filter=', 'filter=null', 'filter=[]', 'filter="x"', 'filter=123', 'filter={', 'filter={"id":{"_eq":{"$gt":1}}}',
  'filter={"id":{"_in":"1,2,x"}}', 'filter={"id":{"_between":[1]}}', 'filter={"_and":{}}', 'filter={"_or":[1,2]}',
  'filter={"id":{"_eq":1e400}}', 'filter={"created_at":{"_gt":"not a date"}}', 'filter={"id":{"_null":"maybe"}}',
  `filter=${'{"_and":['.repeat(30)}{}${']}'.repeat(30)}`, 'filter={"id.x":{"_eq":1}}', 'filter={"__proto__":{"_eq":1}}',
  'filter={"constructor":{"_eq":1}}', 'filter={"id":{"_eq":"\u0000"}}', 'search=a\u0000b', 'filter={"id":{"_eq":99999999999}}', 'filter={"id":{"_in":[1,"x"]}}',
  'filter={"created_at":{"_between":["x","y"]}}', 'filter={"created_by":{"_gt":"abc"}}', 'filter={"id":{"_eq":true}}', 'sort=', 'sort=,,,', 'sort=--id', 'sort=id.', 'sort=__proto__', 'sort=id;drop',
  'limit=-1', 'limit=0', 'limit=1e3', 'limit=99999999999999999999', 'page=0', 'page=abc', 'offset=-5', 'fields=', 'fields=,',
  'fields=id.', 'fields=__proto__', 'meta=everything', 'search=' + 'x'.repeat(500), 'limit=1&limit=2', 'unknown=1',
  // numbers past 64 bits, and link paths no screen asks for (each step is a join)
  'offset=100000000000000000000', 'offset=9223372036854775808', 'page=99999999999999999999', 'page=4294967296',
  `sort=${Array(61).fill('created_by').join('.')}`, `filter={"${Array(61).fill('created_by').join('.')}":{"_eq":1}}`,
  // dates JavaScript accepts and PostgreSQL does not
  'filter={"created_at":{"_gt":"+275760-09-13T00:00:00Z"}}', 'filter={"created_at":{"_eq":"0000-01-01"}}', 'filter={"created_at":{"_lt":"2026-02-30"}}',
];

/** Queries that must be refused, not merely survived. */
const MUST_REFUSE = new Set([
  'offset=100000000000000000000', 'offset=9223372036854775808', 'page=99999999999999999999',
  `sort=${Array(61).fill('created_by').join('.')}`, 'filter={"created_at":{"_gt":"+275760-09-13T00:00:00Z"}}', 'filter={"created_at":{"_eq":"0000-01-01"}}',
]);

const BODIES: unknown[] = [
  null, [], 'text', 42, true, { __proto__: { admin: true } }, { id: 1 }, { created_by: 1 }, { constructor: { prototype: {} } },
  { nope: 1 }, { code: 'A\u0000B', name_th: 'x\u0000' }, Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, i])),
];

describe.each(testDialects())('bad input never answers 500 (%s)', (dialect) => {
  let t: TestApp;
  let entities: string[];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    entities = t.registry.all().map((e) => e.name);
  });
  afterAll(async () => t?.close());

  /** Answers 2xx (a harmless shape) or 4xx with a catalogue code; returns whether it succeeded. */
  const expectNo5xx = (res: { statusCode: number; body: string }, what: string): boolean => {
    expect(res.statusCode, `${what} → ${res.body.slice(0, 200)}`).toBeLessThan(500);
    const body = JSON.parse(res.body);
    if (res.statusCode < 300) {
      expect(body.success, what).toBe(true);
      return true;
    }
    expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
    expect(body.success, what).toBe(false);
    expect(body.error?.code, what).toMatch(/^[A-Z_]+$/);
    expect(body.error?.message, what).toEqual(expect.any(String));
    return false;
  };
  const expect4xx = (res: { statusCode: number; body: string }, what: string) => {
    expect(expectNo5xx(res, what), `${what} should be refused`).toBe(false);
  };

  it('list queries', async () => {
    for (const entity of entities) {
      for (const q of QUERIES) {
        const url = `/api/${entity}?${q.split('&').map((p) => { const [k, ...v] = p.split('='); return `${k}=${encodeURIComponent(v.join('='))}`; }).join('&')}`;
        const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
        if (MUST_REFUSE.has(q)) expect4xx(res, url);
        else expectNo5xx(res, url);
      }
    }
  });

  it('bodies and ids', async () => {
    const before = await t.db.kysely.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n')).where('action', '=', 'create').executeTakeFirstOrThrow();
    let created = 0;
    for (const entity of entities) {
      for (const body of BODIES) {
        const res = await t.app.inject({ method: 'POST', url: `/api/${entity}`, headers: { ...t.headers, 'content-type': 'application/json' }, payload: JSON.stringify(body) });
        if (expectNo5xx(res, `POST ${entity} ${JSON.stringify(body).slice(0, 60)}`)) created++;
      }
      for (const id of ['0', '-1', 'abc', '1.5', '99999999999999999999', '1e3', '2147483648', '999999999999999']) {
        expect4xx(await t.app.inject({ method: 'GET', url: `/api/${entity}/${id}`, headers: t.headers }), `GET ${entity}/${id}`);
        expect4xx(await t.app.inject({ method: 'PATCH', url: `/api/${entity}/${id}`, headers: t.headers, payload: {} }), `PATCH ${entity}/${id}`);
      }
    }
    const after = await t.db.kysely.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n')).where('action', '=', 'create').executeTakeFirstOrThrow();
    // only the harmless shapes (e.g. {} for an entity whose fields all have defaults) stored anything
    expect(Number(after.n)).toBe(Number(before.n) + created);
    expect(created).toBeLessThan(entities.length);
  });

  /** Bad values (as JSON text) per field type: refused with 400, naming that field. */
  const BAD_VALUES: Record<string, { values: string[]; codes: string[] }> = {
    date: { values: ['"2026-02-30"', '"0000-01-01"', '"+275760-09-13"'], codes: ['date'] },
    datetime: { values: ['"+275760-09-13T00:00:00Z"', '"0000-01-01T00:00:00Z"', '"2026-02-30T10:00:00Z"'], codes: ['date-time'] },
    // 20,000 levels: JSON.stringify of it overflows the stack, so it must be refused before anything serialises it
    json: { values: ['['.repeat(20000) + ']'.repeat(20000), JSON.stringify({ blob: 'x'.repeat(300 * 1024) })], codes: ['x-json'] },
    money: { values: ['12.3400000001', '0.001'], codes: ['x-scale'] },
    decimal: { values: ['1.00000000001'], codes: ['x-scale'] },
  };

  it('impossible dates, deep or huge JSON and over-precise numbers in every field that takes them', async () => {
    let checked = 0;
    for (const entity of t.registry.all()) {
      // a sale (document.sale) takes only its contract's fields: tests/pos/pos-sale.test.ts refuses the rest
      if (entity.kind === 'lines' || entity.document?.sale) continue;
      for (const [name, f] of Object.entries(entity.fields)) {
        const bad = BAD_VALUES[f.type];
        if (!bad || f.readOnly) continue;
        if (f.type === 'decimal' && (f.scale ?? 0) >= 11) continue;
        for (const value of bad.values) {
          const res = await t.app.inject({ method: 'POST', url: `/api/${entity.name}`, headers: { ...t.headers, 'content-type': 'application/json' }, payload: `{"${name}": ${value}}` });
          const what = `${entity.name}.${name} = ${value.slice(0, 40)}`;
          expect4xx(res, what);
          const fields = (res.json().error.details?.fields ?? []) as { field: string; code: string }[];
          expect(fields.find((x) => x.field === name)?.code, `${what}: ${res.body.slice(0, 300)}`).toBeOneOf(bad.codes);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });

  it('the documented maximum of a decimal(15,4) field is accepted and stored exactly', async () => {
    const product = await t.app.inject({ method: 'POST', url: '/api/product', headers: t.headers, payload: { code: 'P-MAX', name_th: 'สินค้า', product_class: 'product', unit: 'kg', vat_type: 'vat7' } });
    expect(product.statusCode, product.body).toBe(201);
    const inv = await t.app.inject({ method: 'POST', url: '/api/inventory', headers: t.headers, payload: { code: 'W-MAX', name: 'คลัง', inventory_type: 'warehouse' } });
    const body = { movement_date: '2026-11-01T08:00:00.000Z', product_id: product.json().data.id, inventory_id: inv.json().data.id, direction: 'in', qty: 99999999999.9999 };
    const res = await t.app.inject({ method: 'POST', url: '/api/stock_movement', headers: t.headers, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.qty).toBe(99999999999.9999);
    const over = await t.app.inject({ method: 'POST', url: '/api/stock_movement', headers: t.headers, payload: { ...body, qty: 1.00000000001 } });
    expect(over.statusCode).toBe(400);
  });
});
