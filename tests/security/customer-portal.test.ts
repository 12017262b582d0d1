/**
 * The built-in Customer role (-1, spec section 6): views and edits only its own
 * customer record and its own billing notes; never exports, prints or emails;
 * sees nothing else. Ids changed in paths, filters and dotted link reads (IDOR)
 * must not reach another customer's data.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, csvRows, expectError, idsOf, PASSWORD, q, type Headers } from '../support/security-fixtures.ts';

describe.each(testDialects())('customer portal role on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let mine: number, other: number;
  let company: number;
  let myNote: number, otherNote: number;
  let me: { id: number; headers: Headers; username: string };
  let otherUser: { id: number; headers: Headers; username: string };
  let otherCode: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    mine = await c.customer();
    other = await c.customer();
    otherCode = (await c.call('GET', `/api/customer/${other}`, c.admin)).json().data.code;
    myNote = await c.billingNote(mine, company);
    otherNote = await c.billingNote(other, company);
    me = await c.customerUser(mine);
    otherUser = await c.customerUser(other);
  });
  afterAll(async () => t?.close());

  describe('sign-in', () => {
    it('a customer account signs in only on its own customer page', async () => {
      expectError(await c.signInRaw(me.username, PASSWORD), 401, 'UNAUTHORIZED');
      expectError(await c.signInRaw(me.username, PASSWORD, other), 401, 'UNAUTHORIZED');
      const ok = await c.signInRaw(me.username, PASSWORD, mine);
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().data.user).toMatchObject({ id: me.id, role_id: -1, customer_id: mine });
    });

    it('a staff account cannot sign in on a customer page', async () => {
      const staff = await c.staff('portal_staff', { customer: { view: true } });
      expectError(await c.signInRaw(staff.username, PASSWORD, mine), 401, 'UNAUTHORIZED');
    });

    it('its role answers as the built-in Customer role with fixed flags', async () => {
      const res = await c.call('POST', '/api/role/id', me.headers, { role_id: -1 });
      expect(res.statusCode, res.body).toBe(200);
      const role = res.json().role_data[0];
      expect(role).toMatchObject({ id: -1, name: 'Customer', production_report_print_times: 2 });
      expect(JSON.parse(role.role_detail)).toEqual({
        customer: { view: true, edit: true, email: false, print: false, export: false },
        billing_note: { view: true, edit: true, email: false, print: false, export: false },
      });
    });
  });

  describe('own rows only', () => {
    it('lists only its own customer record and its own billing notes', async () => {
      expect(idsOf(await c.call('GET', '/api/customer', me.headers))).toEqual([mine]);
      expect(idsOf(await c.call('GET', '/api/billing_note', me.headers))).toEqual([myNote]);
      expect((await c.call('GET', '/api/billing_note?meta=total_count', me.headers)).json().meta.total_count).toBe(1);
    });

    it('does not see its own drafts (access.customerStates), nor lines under them, until they are issued', async () => {
      const draft = await c.draftBillingNote(mine, company);
      expect(idsOf(await c.call('GET', '/api/billing_note', me.headers))).toEqual([myNote]);
      expectError(await c.call('GET', `/api/billing_note/${draft}`, me.headers), 404, 'NOT_FOUND');
      const lines = (await c.call('GET', `/api/billing_note_item?filter=${q({ billing_note_id: { _eq: draft } })}`, me.headers)).json().data;
      expect(lines).toEqual([]);
      expect((await c.call('GET', `/api/billing_note/${draft}`, c.admin)).json().data.status).toBe('draft');
      const issued = await c.call('POST', `/api/billing_note/${draft}/actions/issue`, c.admin, {});
      expect(issued.statusCode, issued.body).toBe(200);
      expect(idsOf(await c.call('GET', '/api/billing_note?sort=id', me.headers))).toEqual([myNote, draft]);
      const cancelled = await c.call('POST', `/api/billing_note/${draft}/actions/cancel`, c.admin, {});
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(idsOf(await c.call('GET', '/api/billing_note', me.headers))).toEqual([myNote]);
    });

    it('another customer id in the path answers 404', async () => {
      expectError(await c.call('GET', `/api/customer/${other}`, me.headers), 404, 'NOT_FOUND');
      expectError(await c.call('GET', `/api/billing_note/${otherNote}`, me.headers), 404, 'NOT_FOUND');
      expect((await c.call('GET', `/api/billing_note/${myNote}`, me.headers)).json().data.customer_id).toBe(mine);
    });

    it('filters naming another customer change nothing', async () => {
      for (const filter of [
        { customer_id: { _eq: other } },
        { customer_id: { _in: [mine, other] }, id: { _eq: otherNote } },
        { _or: [{ customer_id: { _eq: other } }, { id: { _gt: 0 } }] },
        { 'customer_id.code': { _eq: otherCode } },
      ]) {
        const ids = idsOf(await c.call('GET', `/api/billing_note?filter=${q(filter)}`, me.headers));
        expect(ids.every((id) => id === myNote), JSON.stringify(filter)).toBe(true);
        expect(ids).not.toContain(otherNote);
      }
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ customer_id: { _eq: other } })}`, me.headers))).toEqual([]);
      expect(idsOf(await c.call('GET', `/api/customer?filter=${q({ id: { _eq: other } })}`, me.headers))).toEqual([]);
      expect(idsOf(await c.call('GET', `/api/customer?search=${encodeURIComponent(otherCode)}`, me.headers))).toEqual([]);
    });

    it('dotted link reads show only its own customer (fields=customer_id.name_th)', async () => {
      const res = await c.call('GET', `/api/billing_note?fields=${encodeURIComponent('customer_id,customer_id.name_th,customer_id.code')}`, me.headers);
      expect(res.statusCode, res.body).toBe(200);
      const rows = res.json().data as Record<string, unknown>[];
      expect(rows.map((r) => r['customer_id'])).toEqual([mine]);
      expect(rows.map((r) => r['customer_id.code'])).not.toContain(otherCode);
      const one = await c.call('GET', `/api/billing_note/${otherNote}?fields=${encodeURIComponent('customer_id.name_th')}`, me.headers);
      expectError(one, 404, 'NOT_FOUND');
    });

    it('links into entities it may not view: left out of fields, FIELD_FORBIDDEN in filter and sort', async () => {
      // issue 38: a column the role may not read is left out, the rest of the list still comes
      const listed = await c.call('GET', `/api/billing_note?fields=${encodeURIComponent('id,your_company_id.name_th')}`, me.headers);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.json().data.length).toBeGreaterThan(0);
      for (const row of listed.json().data) expect(Object.keys(row)).toEqual(['id']);
      expectError(await c.call('GET', `/api/billing_note?filter=${q({ 'your_company_id.tax_id': { _starts_with: '0' } })}`, me.headers), 403, 'FIELD_FORBIDDEN');
      expectError(await c.call('GET', `/api/billing_note?sort=${encodeURIComponent('your_company_id.name_th')}`, me.headers), 403, 'FIELD_FORBIDDEN');
      expectError(await c.call('GET', `/api/customer?sort=${encodeURIComponent('-salesperson_id.first_name_th')}`, me.headers), 403, 'FIELD_FORBIDDEN');
      expectError(await c.call('GET', `/api/customer?filter=${q({ price_list_id: { name_th: { _nnull: true } } })}`, me.headers), 403, 'FIELD_FORBIDDEN');
    });

    /**
     * created_by / updated_by link every row to user_account. A customer may
     * read its own account, but not the staff accounts that wrote its rows.
     */
    it('cannot read staff accounts through created_by/updated_by links', async () => {
      for (const path of ['created_by.username', 'created_by.email', 'updated_by.inventory_allow']) {
        const res = await c.call('GET', `/api/billing_note?fields=${encodeURIComponent(path)}`, me.headers);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.every((r: Record<string, unknown>) => !(path in r))).toBe(true);
        expect(res.body).not.toContain('"admin"');
      }
      // used as an oracle: does the note's author's username start with "a"?
      const oracle = await c.call('GET', `/api/billing_note?filter=${q({ 'created_by.username': { _starts_with: 'adm' } })}`, me.headers);
      expectError(oracle, 403, 'FIELD_FORBIDDEN');
    });

    it('sees only its own user account', async () => {
      expect(idsOf(await c.call('GET', '/api/user_account', me.headers))).toEqual([me.id]);
      expectError(await c.call('GET', `/api/user_account/${otherUser.id}`, me.headers), 404, 'NOT_FOUND');
      expectError(await c.call('POST', '/api/user/id', me.headers, { user_id: otherUser.id }), 404, 'NOT_FOUND');
      const own = await c.call('POST', '/api/user/id', me.headers, { user_id: me.id });
      expect(own.json().data).toMatchObject({ id: me.id, role_id: -1, customer_id: mine });
    });
  });

  describe('writes (IDOR)', () => {
    it('edits its own customer record but not another one', async () => {
      const ok = await c.call('PATCH', `/api/customer/${mine}`, me.headers, { contact_name: 'คุณเอง' });
      expect(ok.statusCode, ok.body).toBe(200);
      expectError(await c.call('PATCH', `/api/customer/${other}`, me.headers, { contact_name: 'hijack' }), 404, 'NOT_FOUND');
      expect((await c.call('GET', `/api/customer/${other}`, c.admin)).json().data.contact_name).toBeNull();
      // the Customer role never deletes (spec: view and edit only), not even its own rows
      expectError(await c.call('DELETE', `/api/customer/${other}`, me.headers), 403, 'FORBIDDEN');
      expectError(await c.call('DELETE', `/api/customer/${mine}`, me.headers), 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/customer/${other}`, c.admin)).statusCode).toBe(200);
      expect((await c.call('GET', `/api/customer/${mine}`, c.admin)).statusCode).toBe(200);
    });

    it('cannot create a customer record', async () => {
      expectError(await c.call('POST', '/api/customer', me.headers, { code: c.next('CX'), customer_type: 'individual', name_th: 'ใหม่' }), 403, 'FORBIDDEN');
    });

    it('cannot create a billing note for another customer, nor move its own to another customer', async () => {
      const b = c.billingNoteBody(other, company);
      expectError(await c.call('POST', '/api/billing_note', me.headers, b), 403, 'FORBIDDEN');
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ bill_no: { _eq: b.bill_no } })}`, c.admin))).toEqual([]);
      expectError(await c.call('PATCH', `/api/billing_note/${myNote}`, me.headers, { customer_id: other }), 403, 'FORBIDDEN');
      expect((await c.call('GET', `/api/billing_note/${myNote}`, c.admin)).json().data.customer_id).toBe(mine);
    });

    it('a bulk of billing notes with one for another customer is refused whole', async () => {
      const items = [c.billingNoteBody(mine, company), c.billingNoteBody(other, company)];
      const res = await c.call('POST', '/api/billing_note/bulk', me.headers, { items });
      // refused before any item is looked at: the Customer role never creates
      expectError(res, 403, 'FORBIDDEN');
      expect(idsOf(await c.call('GET', `/api/billing_note?filter=${q({ bill_no: { _in: items.map((i) => i.bill_no) } })}`, c.admin))).toEqual([]);
      expectError(await c.call('POST', '/api/customer/bulk', me.headers, { items: [{ code: c.next('CB'), customer_type: 'individual', name_th: 'x' }] }), 403, 'FORBIDDEN');
    });

    it('cannot touch another customer\'s billing note', async () => {
      expectError(await c.call('PATCH', `/api/billing_note/${otherNote}`, me.headers, { note: 'hijack' }), 404, 'NOT_FOUND');
      expectError(await c.call('PUT', `/api/billing_note/${otherNote}`, me.headers, c.billingNoteBody(mine, company)), 404, 'NOT_FOUND');
      expectError(await c.call('DELETE', `/api/billing_note/${otherNote}`, me.headers), 403, 'FORBIDDEN');
      const row = (await c.call('GET', `/api/billing_note/${otherNote}`, c.admin)).json().data;
      expect(row.note).toBeNull();
      expect(row.customer_id).toBe(other);
    });
  });

  describe('no export, no other entities', () => {
    it('may not export its own customer record or billing notes', async () => {
      expectError(await c.call('GET', '/api/customer/export', me.headers), 403, 'FORBIDDEN');
      expectError(await c.call('GET', '/api/billing_note/export', me.headers), 403, 'FORBIDDEN');
      expect(csvRows(await c.call('GET', '/api/billing_note/export', c.admin)).length).toBeGreaterThanOrEqual(2);
    });

    it('may not print or email either (no HTTP route yet, so the policy is asked directly)', async () => {
      const ctx = { userId: me.id, ip: null, principal: await t.auth.principalFor(me.headers.authorization!.slice(7)) };
      for (const entity of ['customer', 'billing_note']) {
        for (const action of ['print', 'email', 'export'] as const) {
          expect(() => t.policy.assertAllowed(ctx, t.registry.get(entity)!, action), `${entity} ${action}`).toThrow(/may not/);
        }
        expect(() => t.policy.assertAllowed(ctx, t.registry.get(entity)!, 'read')).not.toThrow();
        expect(() => t.policy.assertAllowed(ctx, t.registry.get(entity)!, 'update')).not.toThrow();
      }
    });

    it.each(['product', 'your_company', 'inventory', 'stock_movement', 'staff', 'user_role', 'user_type', 'supplier', 'price_list'])('GET /api/%s → 403', async (entity) => {
      expectError(await c.call('GET', `/api/${entity}`, me.headers), 403, 'FORBIDDEN');
      expectError(await c.call('GET', `/api/${entity}/1`, me.headers), 403, 'FORBIDDEN');
      expectError(await c.call('GET', `/api/${entity}/export`, me.headers), 403, 'FORBIDDEN');
    });

    it('cannot read the system log, roles of others, or the staff menu entries it may not view', async () => {
      expectError(await c.call('GET', '/api/system_log', me.headers), 403, 'FORBIDDEN');
      const adminRole = (await c.call('GET', '/api/user_account?filter=' + q({ username: { _eq: 'admin' } }), c.admin)).json().data[0].role_id;
      expectError(await c.call('POST', '/api/role/id', me.headers, { role_id: adminRole }), 403, 'FORBIDDEN');
      const menu = await c.call('GET', '/api/menu', me.headers);
      const keys = (menu.json().data as { submenu: { keyAction: string }[] }[]).flatMap((g) => g.submenu.map((s) => s.keyAction)).sort();
      expect(keys).toEqual(['billing_note', 'customer']);
    });

    it('lines of other customers\' billing notes stay invisible', async () => {
      const res = await c.call('GET', `/api/billing_note_item?filter=${q({ billing_note_id: { _eq: otherNote } })}`, me.headers);
      expect(idsOf(res)).toEqual([]);
      const own = await c.call('GET', '/api/billing_note_item?limit=500', me.headers);
      expect(own.statusCode, own.body).toBe(200);
      const rows = own.json().data as { billing_note_id: number }[];
      expect(rows.map((r) => r.billing_note_id)).toEqual([myNote, myNote]);
    });
  });

  it('no response carried a password hash', () => c.assertNoHashLeaked());
});
