/**
 * Table-driven menu-flag checks (spec section 6): every flag combination ×
 * every verb × two entities (a master and a document with lines).
 * view → list and get; edit → create, update (PUT), patch, delete, together with view (a write answers with the row);
 * export → CSV, together with view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, csvRows, expectError, idsOf, type Flags, type Headers } from '../support/security-fixtures.ts';

type Verb = 'list' | 'get' | 'create' | 'update' | 'patch' | 'delete' | 'export';
type Entity = 'product' | 'billing_note';

const VERBS: Verb[] = ['list', 'get', 'create', 'update', 'patch', 'delete', 'export'];
const ENTITIES: Entity[] = ['product', 'billing_note'];
const ROLES: Record<string, Flags> = {
  none: {},
  view: { view: true },
  edit: { edit: true },
  export: { export: true },
  view_edit: { view: true, edit: true },
  view_export: { view: true, export: true },
  all_but_view: { edit: true, export: true, print: true, email: true },
};
/** The flags a verb needs, all of them. */
const NEEDS: Record<Verb, (keyof Flags)[]> = {
  list: ['view'], get: ['view'], export: ['view', 'export'],
  create: ['view', 'edit'], update: ['view', 'edit'], patch: ['view', 'edit'], delete: ['view', 'edit'],
};

const CASES = ENTITIES.flatMap((entity) => Object.keys(ROLES).flatMap((role) => VERBS.map((verb) => ({
  entity, role, verb, allowed: NEEDS[verb].every((f) => ROLES[role]![f] === true),
}))));

describe.each(testDialects())('menu flags × verbs on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customerId: number;
  let companyId: number;
  const base: Record<Entity, number> = { product: 0, billing_note: 0 };
  const users: Record<string, Headers> = {};

  const body = (entity: Entity): Record<string, unknown> => {
    if (entity === 'product') { const code = c.next('MX'); return { code, name_th: `สินค้า ${code}`, product_class: 'class_a', unit: 'ม้วน', price: 10, vat_type: 'vat7' }; }
    return c.billingNoteBody(customerId, companyId);
  };
  const changed = (entity: Entity) => (entity === 'product' ? 'name_th' : 'note');
  const adminGet = (entity: Entity, id: number) => c.call('GET', `/api/${entity}/${id}`, c.admin);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    companyId = await c.company();
    customerId = await c.customer();
    base.product = await c.product();
    base.billing_note = await c.billingNote(customerId, companyId);
    for (const [name, flags] of Object.entries(ROLES)) {
      // the role grants the flags on both entities, and view on what a billing note links to (a link must point at a row the writer can see)
      users[name] = (await c.staff(`mx_${name}`, { product: flags, billing_note: flags, customer: { view: true }, your_company: { view: true } })).headers;
    }
  });
  afterAll(async () => t?.close());

  it.each(CASES)('$entity: role $role may $verb → $allowed', async ({ entity, role, verb, allowed }) => {
    const h = users[role]!;
    const url = `/api/${entity}`;
    const field = changed(entity);
    switch (verb) {
      case 'list': {
        const res = await c.call('GET', url, h);
        if (allowed) expect(idsOf(res)).toContain(base[entity]);
        else expectError(res, 403, 'FORBIDDEN');
        break;
      }
      case 'get': {
        const res = await c.call('GET', `${url}/${base[entity]}`, h);
        if (allowed) { expect(res.statusCode, res.body).toBe(200); expect(res.json().data.id).toBe(base[entity]); }
        else expectError(res, 403, 'FORBIDDEN');
        break;
      }
      case 'export': {
        const res = await c.call('GET', `${url}/export`, h);
        if (allowed) expect(csvRows(res).map((r) => Number(r.id))).toContain(base[entity]);
        else { expectError(res, 403, 'FORBIDDEN'); expect(res.headers['content-type']).not.toContain('text/csv'); }
        break;
      }
      case 'create': {
        const b = body(entity);
        const res = await c.call('POST', url, h, b);
        const key = entity === 'product' ? 'code' : 'bill_no';
        const found = await c.call('GET', `${url}?filter=${encodeURIComponent(JSON.stringify({ [key]: { _eq: b[key] } }))}`, c.admin);
        if (allowed) { expect(res.statusCode, res.body).toBe(201); expect(idsOf(found)).toEqual([res.json().data.id]); }
        else { expectError(res, 403, 'FORBIDDEN'); expect(idsOf(found)).toEqual([]); }
        break;
      }
      case 'update':
      case 'patch': {
        const b = body(entity);
        const id = await c.make(entity, b);
        const payload = verb === 'update' ? { ...b, [field]: `changed by ${role}` } : { [field]: `changed by ${role}` };
        const res = await c.call(verb === 'update' ? 'PUT' : 'PATCH', `${url}/${id}`, h, payload);
        const after = (await adminGet(entity, id)).json().data;
        if (allowed) { expect(res.statusCode, res.body).toBe(200); expect(after[field]).toBe(`changed by ${role}`); }
        else { expectError(res, 403, 'FORBIDDEN'); expect(after[field]).toBe(b[field] ?? null); }
        break;
      }
      case 'delete': {
        const id = await c.make(entity, body(entity));
        const res = await c.call('DELETE', `${url}/${id}`, h);
        const after = await adminGet(entity, id);
        if (allowed) { expect(res.statusCode, res.body).toBe(200); expectError(after, 404, 'NOT_FOUND'); }
        else { expectError(res, 403, 'FORBIDDEN'); expect(after.statusCode).toBe(200); }
        break;
      }
    }
  });

  it('the wildcard "*" grants a flag on every menu, and a menu entry overrides it', async () => {
    const u = await c.staff('wild', { '*': { view: true }, billing_note: { view: false } });
    expect(idsOf(await c.call('GET', '/api/product', u.headers))).toContain(base.product);
    expect(idsOf(await c.call('GET', '/api/customer', u.headers))).toContain(customerId);
    expectError(await c.call('GET', '/api/billing_note', u.headers), 403, 'FORBIDDEN');
    expectError(await c.call('POST', '/api/product', u.headers, body('product')), 403, 'FORBIDDEN');
  });

  it('lines of a document follow the document\'s menu flags (billing_note_item ← billing_note)', async () => {
    expectError(await c.call('GET', '/api/billing_note_item', users.none!), 403, 'FORBIDDEN');
    expect((await c.call('GET', '/api/billing_note_item', users.view!)).statusCode).toBe(200);
    // lines are written only through their document, even with edit
    expectError(await c.call('POST', '/api/billing_note_item', users.view_edit!, { billing_note_id: base.billing_note, description: 'x', amount: 1 }), 405, 'METHOD_NOT_ALLOWED');
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
