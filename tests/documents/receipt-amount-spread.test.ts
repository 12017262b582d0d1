/**
 * Issue 48 §3: a receipt from bills takes one amount received and spreads it over the open lines,
 * oldest due first (server/documents/receipt-amount-spread.ts); the lines stay editable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, type Method } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('one amount received spread over bills on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
  });
  afterAll(async () => t?.close());

  const call = (method: Method, path: string, body?: Row) => c.call(method, path, c.admin, body);
  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const bill = async (due: string, amounts: number[]): Promise<Row> => {
    const bn = await ok(call('POST', '/api/billing_note', {
      bill_date: '2026-11-01', due_date: due, your_company_id: company, customer_id: customer, vat_type: 'none',
      items: amounts.map((amount, i) => ({ description: `งาน ${i + 1}`, amount })),
    }), 201);
    await ok(call('POST', `/api/billing_note/${bn.id}/actions/issue`));
    return ok(call('GET', `/api/billing_note/${bn.id}`));
  };

  it('fills the lines of the bill due first, then the next, each up to what is open; the draft\'s lines stay editable', async () => {
    const later = await bill('2026-12-10', [1000, 800]);
    const sooner = await bill('2026-11-30', [700]);
    const rc = await ok(call('POST', '/api/receipt/from/billing_note', { ids: [later.id, sooner.id], amount: 1500 }), 201);
    expect(rc.items.map((l: Row) => [l.billing_note_id, l.source_line_id, l.amount])).toEqual([
      [sooner.id, sooner.items[0].id, 700],
      [later.id, later.items[0].id, 800],
    ]);
    expect(rc.total_amount).toBe(1500);
    // a line changed by hand before posting: the draft is an ordinary one
    const edited = await ok(call('PATCH', `/api/receipt/${rc.id}`, { items: rc.items.map((l: Row, i: number) => ({ id: l.id, amount: i === 1 ? 750 : l.amount })) }));
    expect(edited.total_amount).toBe(1450);
    await ok(call('POST', `/api/receipt/${rc.id}/actions/post`));
    expect((await ok(call('GET', `/api/billing_note/${sooner.id}`))).status).toBe('paid');
    expect((await ok(call('GET', `/api/billing_note/${later.id}`))).status).toBe('partially_paid');
    // what is left: 250 on the first line and 800 on the second; an amount a satang over it is refused, naming the field
    const over = await call('POST', '/api/receipt/from/billing_note', { ids: [later.id], amount: '1050.01' });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json().error.details.fields).toEqual([expect.objectContaining({ field: 'amount', code: 'maximum', params: { limit: '1050.00' } })]);
    const rest = await ok(call('POST', '/api/receipt/from/billing_note', { ids: [later.id], amount: '1050' }), 201);
    expect(rest.items.map((l: Row) => l.amount)).toEqual([250, 800]);
  });

  it('refuses an amount of nothing, or an amount beside lines', async () => {
    const bn = await bill('2026-12-01', [300]);
    for (const [body, code] of [[{ ids: [bn.id], amount: 0 }, 'positive'], [{ ids: [bn.id], amount: 'abc' }, 'positive'], [{ ids: [bn.id], amount: 100, lines: [] }, 'invalid']] as const) {
      const res = await call('POST', '/api/receipt/from/billing_note', body as Row);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.fields[0]).toMatchObject({ field: 'amount', code });
    }
  });
});
