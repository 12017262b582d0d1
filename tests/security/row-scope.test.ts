/**
 * The user type's restrictions (spec section 6): is_limit_inventory_to_access
 * keeps a user to inventory_allow, is_limit_company_to_access to branch_company.
 * Rows outside are invisible in lists, 404 on get, absent from exports, and
 * cannot be created or moved there (403).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, csvRows, expectError, idsOf, q, type Headers } from '../support/security-fixtures.ts';

const ALL = { view: true, edit: true, export: true, print: true, email: true };

describe.each(testDialects())('row restrictions on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let coA: number, coB: number;
  let invA: number, invB: number, invA2: number;
  let product: number;
  let moveA: number, moveB: number;
  let locA: number, locB: number;
  let customer: number;
  let noteA: number, noteB: number, noteNone: number;
  let stock: Headers; // inventory-limited to invA
  let office: Headers; // company-limited to coA
  let emptyAllow: Headers; // inventory-limited with an empty allow list

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    coA = await c.company();
    coB = await c.company();
    invA = await c.inventory(coA);
    invA2 = await c.inventory(coA);
    invB = await c.inventory(coB);
    product = await c.product();
    moveA = await c.stockMovement(product, invA);
    moveB = await c.stockMovement(product, invB);
    locA = await c.location(invA);
    locB = await c.location(invB);
    customer = await c.customer();
    noteA = await c.billingNote(customer, coA);
    noteB = await c.billingNote(customer, coB);
    noteNone = await c.billingNote(customer, null);
    const stockRole = { stock_movement: ALL, inventory: ALL, product_location: ALL, product: { view: true } };
    stock = (await c.staff('stock', stockRole, { inventory: [invA] })).headers;
    emptyAllow = (await c.staff('noinv', stockRole, { inventory: [] })).headers;
    office = (await c.staff('office', { billing_note: ALL, your_company: ALL, inventory: ALL, customer: { view: true } }, { company: [coA] })).headers;
  });
  afterAll(async () => t?.close());

  describe('inventory-limited user (inventory_allow = [A])', () => {
    it('lists only stock movements, inventories and locations of allowed inventories; admin sees all', async () => {
      expect(idsOf(await c.call('GET', '/api/stock_movement', stock))).toEqual([moveA]);
      expect(idsOf(await c.call('GET', '/api/inventory', stock))).toEqual([invA]);
      expect(idsOf(await c.call('GET', '/api/product_location', stock))).toEqual([locA]);
      expect(idsOf(await c.call('GET', '/api/stock_movement', c.admin))).toEqual([moveA, moveB]);
    });

    it('total_count counts only visible rows', async () => {
      const res = await c.call('GET', '/api/stock_movement?meta=total_count', stock);
      expect(res.json().meta.total_count).toBe(1);
    });

    it('get of a row in another inventory answers 404, not the row', async () => {
      expectError(await c.call('GET', `/api/stock_movement/${moveB}`, stock), 404, 'NOT_FOUND');
      expectError(await c.call('GET', `/api/inventory/${invB}`, stock), 404, 'NOT_FOUND');
      expectError(await c.call('GET', `/api/product_location/${locB}`, stock), 404, 'NOT_FOUND');
      expect((await c.call('GET', `/api/stock_movement/${moveA}`, stock)).json().data.id).toBe(moveA);
    });

    it('a filter naming another inventory finds nothing', async () => {
      expect(idsOf(await c.call('GET', `/api/stock_movement?filter=${q({ inventory_id: { _eq: invB } })}`, stock))).toEqual([]);
      expect(idsOf(await c.call('GET', `/api/stock_movement?filter=${q({ _or: [{ inventory_id: { _eq: invB } }, { id: { _eq: moveB } }] })}`, stock))).toEqual([]);
      expect(idsOf(await c.call('GET', `/api/inventory?filter=${q({ id: { _in: [invA, invB] } })}`, stock))).toEqual([invA]);
    });

    it('export leaves out rows of other inventories', async () => {
      expect(csvRows(await c.call('GET', '/api/stock_movement/export', stock)).map((r) => Number(r.id))).toEqual([moveA]);
      expect(csvRows(await c.call('GET', '/api/inventory/export', stock)).map((r) => Number(r.id))).toEqual([invA]);
      expect(csvRows(await c.call('GET', '/api/stock_movement/export', c.admin)).map((r) => Number(r.id)).sort()).toEqual([moveA, moveB].sort());
    });

    it('creating a stock movement in another inventory is refused (403) and writes nothing', async () => {
      const b = c.stockMovementBody(product, invB);
      const res = await c.call('POST', '/api/stock_movement', stock, b);
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json().error.message).toContain('allowed inventories');
      expect(idsOf(await c.call('GET', `/api/stock_movement?filter=${q({ ref_doc: { _eq: b.ref_doc } })}`, c.admin))).toEqual([]);
      const ok = await c.call('POST', '/api/stock_movement', stock, c.stockMovementBody(product, invA));
      expect(ok.statusCode, ok.body).toBe(201);
    });

    it('moving a location into another inventory is refused and leaves it where it was', async () => {
      const id = await c.location(invA);
      expectError(await c.call('PATCH', `/api/product_location/${id}`, stock, { inventory_id: invB }), 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/product_location/${id}`, c.admin)).json().data.inventory_id).toBe(invA);
      // and a row of another inventory cannot be touched at all
      expectError(await c.call('PATCH', `/api/product_location/${locB}`, stock, { inventory_id: invA }), 404, 'NOT_FOUND');
      expectError(await c.call('DELETE', `/api/product_location/${locB}`, stock), 404, 'NOT_FOUND');
      expect((await c.call('GET', `/api/product_location/${locB}`, c.admin)).json().data.inventory_id).toBe(invB);
    });

    it('a new inventory is outside inventory_allow, so creating one is refused', async () => {
      expectError(await c.call('POST', '/api/inventory', stock, { code: c.next('NEW'), name: 'ใหม่', inventory_type: 'warehouse' }), 403, 'FORBIDDEN');
    });

    it('stock movements are a ledger: nobody changes or deletes them', async () => {
      expectError(await c.call('PATCH', `/api/stock_movement/${moveA}`, stock, { inventory_id: invB }), 405, 'METHOD_NOT_ALLOWED');
      expectError(await c.call('DELETE', `/api/stock_movement/${moveA}`, stock), 405, 'METHOD_NOT_ALLOWED');
    });

    it('an empty inventory_allow means no inventory at all, not every inventory', async () => {
      expect(idsOf(await c.call('GET', '/api/stock_movement', emptyAllow))).toEqual([]);
      expect(idsOf(await c.call('GET', '/api/inventory', emptyAllow))).toEqual([]);
      expectError(await c.call('POST', '/api/stock_movement', emptyAllow, c.stockMovementBody(product, invA)), 403, 'FORBIDDEN');
    });

    it('inventory_allow changes take effect on the next request', async () => {
      const u = await c.staff('stock2', { stock_movement: { view: true } }, { inventory: [invA] });
      const inA = idsOf(await c.call('GET', `/api/stock_movement?filter=${q({ inventory_id: { _eq: invA } })}`, c.admin));
      expect(idsOf(await c.call('GET', '/api/stock_movement', u.headers))).toEqual(inA);
      const res = await c.call('PATCH', `/api/user_account/${u.id}`, c.admin, { inventory_allow: [invB] });
      expect(res.statusCode, res.body).toBe(200);
      expect(idsOf(await c.call('GET', '/api/stock_movement', u.headers))).toEqual([moveB]);
    });

    it('a user type without the restriction ignores inventory_allow', async () => {
      const roleId = await c.role(c.next('free role '), { stock_movement: { view: true } });
      const typeId = await c.userType(c.next('free type '), roleId);
      const name = c.next('free_');
      await c.user(name, { role_id: roleId, user_type_id: typeId, inventory_allow: [invA] });
      expect(idsOf(await c.call('GET', '/api/stock_movement', await c.signIn(name)))).toEqual(expect.arrayContaining([moveA, moveB]));
    });
  });

  describe('company-limited user (branch_company = [A])', () => {
    it('lists, gets and exports only billing notes of the allowed company', async () => {
      expect(idsOf(await c.call('GET', '/api/billing_note', office))).toEqual([noteA]);
      expectError(await c.call('GET', `/api/billing_note/${noteB}`, office), 404, 'NOT_FOUND');
      expectError(await c.call('GET', `/api/billing_note/${noteNone}`, office), 404, 'NOT_FOUND');
      expect(csvRows(await c.call('GET', '/api/billing_note/export', office)).map((r) => Number(r.id))).toEqual([noteA]);
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ your_company_id: { _eq: coB } })}`, office))).toEqual([]);
    });

    it('sees only its companies and their inventories', async () => {
      expect(idsOf(await c.call('GET', '/api/your_company', office))).toEqual([coA]);
      expectError(await c.call('GET', `/api/your_company/${coB}`, office), 404, 'NOT_FOUND');
      expect(idsOf(await c.call('GET', '/api/inventory', office))).toEqual([invA, invA2]);
    });

    it('creating a billing note for another company is refused and writes nothing; for none, it is the user\'s company', async () => {
      const b = c.billingNoteBody(customer, coB);
      expectError(await c.call('POST', '/api/billing_note', office, b), 403, 'FORBIDDEN');
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ bill_no: { _eq: b.bill_no } })}`, c.admin))).toEqual([]);
      // issue 31 §9: a document that names no company takes the one company the user is limited to
      const none = await c.call('POST', '/api/billing_note', office, c.billingNoteBody(customer, null));
      expect(none.statusCode, none.body).toBe(201);
      expect(none.json().data.your_company_id).toBe(coA);
      expect((await c.call('POST', '/api/billing_note', office, c.billingNoteBody(customer, coA))).statusCode).toBe(201);
    });

    it('moving a billing note to another company is refused and changes nothing', async () => {
      const id = await c.billingNote(customer, coA);
      expectError(await c.call('PATCH', `/api/billing_note/${id}`, office, { your_company_id: coB, note: 'moved' }), 403, 'FORBIDDEN');
      const row = (await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data;
      expect(row.your_company_id).toBe(coA);
      expect(row.note).toBeNull();
      expectError(await c.call('PATCH', `/api/billing_note/${noteB}`, office, { note: 'x' }), 404, 'NOT_FOUND');
      expectError(await c.call('DELETE', `/api/billing_note/${noteB}`, office), 404, 'NOT_FOUND');
    });

    it('moving an inventory to another company is refused', async () => {
      expectError(await c.call('PATCH', `/api/inventory/${invA2}`, office, { your_company_id: coB }), 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/inventory/${invA2}`, c.admin)).json().data.your_company_id).toBe(coA);
    });

    /**
     * Document lines have their own list route. They must not show lines of
     * documents the user cannot see, nor read those documents through the
     * parent link.
     */
    it('lines of billing notes of other companies stay invisible (billing_note_item list, export and parent link)', async () => {
      const adminItems = (await c.call('GET', `/api/billing_note_item?limit=500&filter=${q({ billing_note_id: { _in: [noteA, noteB, noteNone] } })}`, c.admin)).json().data as { id: number; billing_note_id: number }[];
      const itemsOfA = adminItems.filter((r) => r.billing_note_id === noteA).map((r) => r.id).sort((a, b) => a - b);
      expect(itemsOfA).toHaveLength(2);
      const listed = await c.call('GET', `/api/billing_note_item?limit=500&fields=${encodeURIComponent('billing_note_id.your_company_id,billing_note_id.bill_no')}`, office);
      expect(listed.statusCode, listed.body).toBe(200);
      const companies = new Set((listed.json().data as Record<string, unknown>[]).map((r) => r['billing_note_id.your_company_id']));
      expect([...companies]).toEqual([coA]);
      const leaked = await c.call('GET', `/api/billing_note_item?filter=${q({ billing_note_id: { _eq: noteB } })}`, office);
      expect(idsOf(leaked)).toEqual([]);
      const exported = csvRows(await c.call('GET', `/api/billing_note_item/export?filter=${q({ billing_note_id: { _eq: noteB } })}`, office));
      expect(exported).toEqual([]);
    });
  });

  describe('bulk create (POST /api/{entity}/bulk) with one forbidden row is refused whole', () => {
    const countByRef = async (refs: unknown[]) =>
      idsOf(await c.call('GET', `/api/stock_movement?filter=${q({ ref_doc: { _in: refs } })}`, c.admin)).length;

    it('an inventory-limited user: two rows in A and one in B → 403 naming the row, nothing written', async () => {
      const items = [c.stockMovementBody(product, invA), c.stockMovementBody(product, invA), c.stockMovementBody(product, invB)];
      const res = await c.call('POST', '/api/stock_movement/bulk', stock, { items });
      expectError(res, 403, 'FORBIDDEN');
      expect(res.json().error.details.index).toBe(2);
      expect(res.json().error.message).toMatch(/^item 2: /);
      expect(await countByRef(items.map((i) => i.ref_doc))).toBe(0);
    });

    it('the forbidden row first, or in the middle, changes nothing either', async () => {
      for (const order of [[invB, invA, invA], [invA, invB, invA]]) {
        const items = order.map((inv) => c.stockMovementBody(product, inv));
        expectError(await c.call('POST', '/api/stock_movement/bulk', stock, { items }), 403, 'FORBIDDEN');
        expect(await countByRef(items.map((i) => i.ref_doc))).toBe(0);
      }
    });

    it('control: all rows in allowed inventories are created', async () => {
      const items = [c.stockMovementBody(product, invA), c.stockMovementBody(product, invA)];
      const res = await c.call('POST', '/api/stock_movement/bulk', stock, { items });
      expect(res.statusCode, res.body).toBe(201);
      expect(await countByRef(items.map((i) => i.ref_doc))).toBe(2);
    });

    it('a company-limited user: billing notes with one for another company → 403, no note and no line written', async () => {
      const lines = (await c.call('GET', '/api/billing_note_item?meta=total_count&limit=1', c.admin)).json().meta.total_count;
      const items = [c.billingNoteBody(customer, coA), c.billingNoteBody(customer, coB)];
      expectError(await c.call('POST', '/api/billing_note/bulk', office, { items }), 403, 'FORBIDDEN');
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ bill_no: { _in: items.map((i) => i.bill_no) } })}`, c.admin))).toEqual([]);
      expect((await c.call('GET', '/api/billing_note_item?meta=total_count&limit=1', c.admin)).json().meta.total_count).toBe(lines);
    });

    it('a role without edit cannot bulk create at all', async () => {
      const viewer = await c.staff('bulkview', { stock_movement: { view: true } });
      const items = [c.stockMovementBody(product, invA)];
      expectError(await c.call('POST', '/api/stock_movement/bulk', viewer.headers, { items }), 403, 'FORBIDDEN');
      expect(await countByRef(items.map((i) => i.ref_doc))).toBe(0);
    });
  });

  describe('a document with lines is one request: one forbidden part refuses it whole', () => {
    it('a company-limited user saving a billing note with lines for another company writes neither the note nor any line', async () => {
      const before = (await c.call('GET', '/api/billing_note_item?meta=total_count&limit=1', c.admin)).json().meta.total_count;
      const b = c.billingNoteBody(customer, coB, { items: [{ description: 'line 1', amount: 1 }, { description: 'line 2', amount: 2 }, { description: 'line 3', amount: 3 }] });
      expectError(await c.call('POST', '/api/billing_note', office, b), 403, 'FORBIDDEN');
      expect((await c.call('GET', '/api/billing_note_item?meta=total_count&limit=1', c.admin)).json().meta.total_count).toBe(before);
    });

    it('replacing the lines of a visible note while moving it out of scope changes no line', async () => {
      const id = await c.billingNote(customer, coA);
      const lines = (await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data.items;
      const res = await c.call('PUT', `/api/billing_note/${id}`, office, { ...c.billingNoteBody(customer, coB), items: [{ description: 'replaced', amount: 9 }] });
      expectError(res, 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data.items).toEqual(lines);
    });
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
