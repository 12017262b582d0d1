/**
 * Issue 8 §2: a status field of an entity with a workflow moves only through
 * its declared actions. A create starts in the initial state, a plain write
 * never sets the status, a locked state refuses plain edits, and actions
 * follow the declared transitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q, type Headers } from '../support/security-fixtures.ts';

describe.each(testDialects())('workflow enforcement on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customer: number;
  let company: number;
  let sales: Headers;
  let clerk: Headers;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    const links = { customer: { view: true }, your_company: { view: true } };
    sales = (await c.staff('wf_sales', { billing_note: { view: true, edit: true }, ...links })).headers;
    clerk = (await c.staff('wf_clerk', { billing_note: { view: true }, ...links })).headers;
  });
  afterAll(async () => t?.close());

  const action = (id: number, name: string, h: Headers = sales, body?: unknown) => c.call('POST', `/api/billing_note/${id}/actions/${name}`, h, body);

  it('a create cannot start in another state than the initial one', async () => {
    const b = c.billingNoteBody(customer, company, { status: 'paid' });
    const res = await c.call('POST', '/api/billing_note', sales, b);
    expectError(res, 400, 'READ_ONLY_FIELD');
    expect(res.json().error.details.fields[0].field).toBe('status');
    expect((await c.call('GET', `/api/billing_note?filter=${q({ bill_no: { _eq: b.bill_no } })}`, c.admin)).json().data).toEqual([]);
    const made = await c.call('POST', '/api/billing_note', sales, { ...b, status: undefined });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.status).toBe('draft');
  });

  it('a plain write never changes the status; actions do, along the declared transitions', async () => {
    const id = await c.draftBillingNote(customer, company);
    for (const method of ['PATCH', 'PUT'] as const) {
      const body = method === 'PATCH' ? { status: 'paid' } : c.billingNoteBody(customer, company, { status: 'paid' });
      expectError(await c.call(method, `/api/billing_note/${id}`, sales, body), 400, 'READ_ONLY_FIELD');
    }
    // even the administrator goes through actions
    expectError(await c.call('PATCH', `/api/billing_note/${id}`, c.admin, { status: 'issued' }), 400, 'READ_ONLY_FIELD');
    // paid and partially paid follow posted receipts (tests/documents/finance-chain.test.ts): no action sets them
    expectError(await action(id, 'mark_paid'), 404, 'NOT_FOUND');
    expectError(await action(id, 'approve_everything'), 404, 'NOT_FOUND');
    expectError(await action(id, 'issue', clerk), 403, 'FORBIDDEN');
    const issued = await action(id, 'issue');
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().data.status).toBe('issued');
    expectError(await action(id, 'issue'), 409, 'INVALID_TRANSITION');
    expect((await action(id, 'cancel')).json().data.status).toBe('cancelled');
    expectError(await action(id, 'cancel'), 409, 'INVALID_TRANSITION');
  });

  it('a locked state refuses plain edits and deletes, except the fields it lists', async () => {
    const id = await c.draftBillingNote(customer, company);
    expect((await action(id, 'issue')).statusCode).toBe(200);
    const before = (await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data;
    const res = await c.call('PATCH', `/api/billing_note/${id}`, sales, { total_amount: 1, note: 'แก้ยอด' });
    expectError(res, 409, 'DOCUMENT_LOCKED');
    expect(res.json().error.details.fields.map((f: { field: string }) => f.field)).toEqual(['total_amount']);
    expectError(await c.call('DELETE', `/api/billing_note/${id}`, sales), 409, 'DOCUMENT_LOCKED');
    expect((await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data).toEqual(before);
    const noted = await c.call('PATCH', `/api/billing_note/${id}`, sales, { note: 'ส่งทางไปรษณีย์แล้ว' });
    expect(noted.statusCode, noted.body).toBe(200);
    const cancelled = await action(id, 'cancel');
    expect(cancelled.json().data.status).toBe('cancelled');
  });

  it('an action takes only the fields its transition declares, and the audit log records it', async () => {
    const id = await c.draftBillingNote(customer, company);
    expectError(await action(id, 'issue', sales, { total_amount: 0 }), 400, 'UNKNOWN_FIELD');
    expect((await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data.status).toBe('draft');
    expect((await action(id, 'issue')).statusCode).toBe(200);
    const log = await t.db.kysely.selectFrom('system_log').select('changes').where('entity', '=', 'billing_note').where('record_id', '=', String(id)).where('action', '=', 'update').execute();
    expect(log.map((r) => JSON.parse(String(r.changes)).status)).toContainEqual(['draft', 'issued']);
  });

  it('a portal customer runs no action on its own bill', async () => {
    const id = await c.billingNote(customer, company);
    const me = (await c.customerUser(customer)).headers;
    expectError(await action(id, 'cancel', me), 403, 'FIELD_FORBIDDEN');
    expect((await c.call('GET', `/api/billing_note/${id}`, c.admin)).json().data.status).toBe('issued');
  });
});
