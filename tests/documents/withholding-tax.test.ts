/**
 * Issue 9: the withholding certificate (50 ทวิ): the tax is computed exactly
 * by the server, only Thai rates pass (an enum: 1, 2, 3, 5), the payee follows its type, and the
 * number is drawn when the certificate is issued, consecutively.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('withholding tax certificates on %s', (dialect) => {
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

  const body = (extra: Row = {}) => ({
    doc_date: '2026-11-20', your_company_id: company, payee_type: 'customer', customer_id: customer,
    income_type: '40_8', income_description: 'ค่าบริการติดตั้ง', pnd_form: 'pnd53', wht_rate: '3', amount_paid: 333.5, ...extra,
  });

  it('computes the tax withheld exactly and keeps it the server\'s', async () => {
    const res = await c.call('POST', '/api/withholding_tax', c.admin, body());
    expect(res.statusCode, res.body).toBe(201);
    const wt = res.json().data;
    expect(wt).toMatchObject({ tax_amount: 10.01, status: 'draft', doc_no: null });
    const changed = await c.call('PATCH', `/api/withholding_tax/${wt.id}`, c.admin, { amount_paid: 10000, wht_rate: '5' });
    expect(changed.json().data.tax_amount).toBe(500);
    expectError(await c.call('PATCH', `/api/withholding_tax/${wt.id}`, c.admin, { tax_amount: 1 }), 400, 'READ_ONLY_FIELD');
    const four = await c.call('PATCH', `/api/withholding_tax/${wt.id}`, c.admin, { wht_rate: '4' });
    expectError(four, 400, 'VALIDATION_FAILED');
    expect(four.json().error.details.fields[0].field).toBe('wht_rate');
  });

  it('needs the payee its type names', async () => {
    const res = await c.call('POST', '/api/withholding_tax', c.admin, body({ payee_type: 'supplier', customer_id: null }));
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields.map((f: Row) => f.field)).toEqual(['supplier_id']);
  });

  it('is numbered when issued, one after the other, and locked then', async () => {
    const a = (await c.call('POST', '/api/withholding_tax', c.admin, body())).json().data;
    const b = (await c.call('POST', '/api/withholding_tax', c.admin, body())).json().data;
    const nb = (await c.call('POST', `/api/withholding_tax/${b.id}/actions/issue`, c.admin)).json().data.doc_no;
    const na = (await c.call('POST', `/api/withholding_tax/${a.id}/actions/issue`, c.admin)).json().data.doc_no;
    expect(nb).toMatch(/^WT\d{6}-\d{4}$/);
    expect(Number(na.slice(-4))).toBe(Number(nb.slice(-4)) + 1);
    expectError(await c.call('PATCH', `/api/withholding_tax/${a.id}`, c.admin, { amount_paid: 1 }), 409, 'DOCUMENT_LOCKED');
  });
});
