/**
 * Issue 38 §8: a receipt records the money received. A new receipt's amounts
 * include VAT (20,000 received is a receipt of 20,000, not 21,400); one made
 * from a billing note takes the bill's VAT type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('receipt VAT type on %s', (dialect) => {
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

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };

  it('a receipt typed by hand defaults to VAT included: the amount received is the total', async () => {
    const r = await ok(c.call('POST', '/api/receipt', c.admin, { doc_date: '2026-11-20', your_company_id: company, customer_id: customer, items: [{ description: 'รับชำระ', amount: 20000 }] }), 201);
    expect(r).toMatchObject({ vat_type: 'include', total_amount: 20000 });
    expect(r.vat_amount + r.amount_before_vat).toBe(20000);
  });

  it.each(['exclude', 'none'])('a receipt made from a bill with VAT %s takes the bill\'s VAT type', async (vatType) => {
    const bn = await ok(c.call('POST', '/api/billing_note', c.admin, { ...c.billingNoteBody(customer, company), vat_type: vatType, total_amount: undefined, items: [{ description: 'ค่าสินค้า', amount: 10000 }] }), 201);
    await ok(c.call('POST', `/api/billing_note/${bn.id}/actions/issue`, c.admin));
    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id] }), 201);
    expect(r.vat_type).toBe(vatType);
    expect(r.total_amount).toBe(bn.total_amount);
  });
});
