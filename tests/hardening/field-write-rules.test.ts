/**
 * Issue 8 §1: field-level write rules. A portal customer changes only the
 * fields its entity lists in access.customerWritable (contact details, the
 * acknowledgement of a bill); a field with writePermission needs edit on that
 * key. Everything else answers 403 FIELD_FORBIDDEN naming the field, and
 * nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, thaiTaxId, type Headers } from '../support/security-fixtures.ts';

const forbiddenFields = (res: { json(): { error: { details: { fields: { field: string }[] } } } }) => res.json().error.details.fields.map((f) => f.field).sort();

describe.each(testDialects())('field-level write rules on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customer: number;
  let otherCompany: number;
  let note: number;
  let me: Headers;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const company = await c.company();
    otherCompany = await c.company();
    customer = await c.customer();
    note = await c.billingNote(customer, company);
    me = (await c.customerUser(customer)).headers;
  });
  afterAll(async () => t?.close());

  const bill = async () => (await c.call('GET', `/api/billing_note/${note}`, c.admin)).json().data;
  const cust = async () => (await c.call('GET', `/api/customer/${customer}`, c.admin)).json().data;

  it('a customer cannot mark its bill paid or zero its amount', async () => {
    const before = await bill();
    const res = await c.call('PATCH', `/api/billing_note/${note}`, me, { status: 'paid', total_amount: 0 });
    expectError(res, 403, 'FIELD_FORBIDDEN');
    expect(forbiddenFields(res)).toEqual(['status', 'total_amount']);
    expect(res.json().error.message).toContain('total_amount');
    expect(await bill()).toEqual(before);
  });

  it('a customer cannot replace the bill number or its lines, nor move it to another company', async () => {
    const before = await bill();
    expect(forbiddenFields(await c.call('PATCH', `/api/billing_note/${note}`, me, { bill_no: 'BN-FAKE' }))).toEqual(['bill_no']);
    const lines = await c.call('PATCH', `/api/billing_note/${note}`, me, { items: [{ description: 'ยกเลิกหนี้', amount: 1 }] });
    expectError(lines, 403, 'FIELD_FORBIDDEN');
    // the totals the new lines would give are refused with them
    expect(forbiddenFields(lines)).toEqual(expect.arrayContaining(['items', 'total_amount']));
    expect(forbiddenFields(await c.call('PATCH', `/api/billing_note/${note}`, me, { your_company_id: otherCompany }))).toEqual(['your_company_id']);
    expect(await bill()).toEqual(before);
  });

  it('a customer may acknowledge its bill and leave a remark, and send unchanged fields back', async () => {
    const before = await bill();
    const res = await c.call('PATCH', `/api/billing_note/${note}`, me, {
      customer_acknowledged: true, customer_remark: 'ได้รับแล้ว จะชำระภายในสิ้นเดือน', total_amount: before.total_amount, bill_no: before.bill_no,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ customer_acknowledged: true, total_amount: before.total_amount, status: before.status });
  });

  it('a customer cannot change its credit terms, price list, code or active flag', async () => {
    const before = await cust();
    const res = await c.call('PATCH', `/api/customer/${customer}`, me, { credit_limit: 99999999, credit_term_days: 365, price_list_id: null, code: 'HACK', is_active: false });
    expectError(res, 403, 'FIELD_FORBIDDEN');
    expect(forbiddenFields(res)).toEqual(['code', 'credit_limit', 'credit_term_days', 'is_active']);
    expect(await cust()).toEqual(before);
  });

  it('a customer may change the contact details of its own record', async () => {
    const res = await c.call('PATCH', `/api/customer/${customer}`, me, { contact_name: 'คุณสมศรี', contact_phone: '081-234-5678', email: 'ap@example.co.th' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ contact_name: 'คุณสมศรี', contact_phone: '081-234-5678' });
  });

  it('a PUT from a customer that drops a protected field is refused whole (PUT empties what it leaves out)', async () => {
    const before = await cust();
    const res = await c.call('PUT', `/api/customer/${customer}`, me, { code: before.code, customer_type: before.customer_type, name_th: before.name_th, contact_name: 'x' });
    expectError(res, 403, 'FIELD_FORBIDDEN');
    expect(forbiddenFields(res)).toContain('credit_term_days');
    expect(await cust()).toEqual(before);
  });

  it('credit terms need edit on the customer_credit permission key, also for staff', async () => {
    const sales = await c.staff('fw_sales', { customer: { view: true, edit: true } });
    const credit = await c.staff('fw_credit', { customer: { view: true, edit: true }, customer_credit: { view: true, edit: true } });
    const refused = await c.call('PATCH', `/api/customer/${customer}`, sales.headers, { credit_limit: 500000, note: 'ขอวงเงิน' });
    expectError(refused, 403, 'FIELD_FORBIDDEN');
    expect(forbiddenFields(refused)).toEqual(['credit_limit']);
    expect((await cust()).note).toBeNull();
    expect((await c.call('PATCH', `/api/customer/${customer}`, sales.headers, { note: 'ลูกค้าประจำ' })).statusCode).toBe(200);
    const ok = await c.call('PATCH', `/api/customer/${customer}`, credit.headers, { credit_limit: 500000 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.credit_limit).toBe(500000);
    // on create too: a new customer with a credit limit needs the key; the schema's default needs nothing
    const body = { code: c.next('CN'), customer_type: 'juristic', name_th: 'ลูกค้าใหม่', tax_id: thaiTaxId(998877665), branch_code: '00000' };
    expectError(await c.call('POST', '/api/customer', sales.headers, { ...body, credit_limit: 1000 }), 403, 'FIELD_FORBIDDEN');
    expect((await c.call('POST', '/api/customer', sales.headers, body)).statusCode).toBe(201);
  });

  it('the role editor offers the permission keys the schemas name, so customer_credit can be granted there', async () => {
    const res = await c.call('GET', '/api/role_matrix/menu_keys', c.admin);
    expect(res.statusCode, res.body).toBe(200);
    const items = (res.json().data as { items: { key: string; label: { th: string } }[] }[]).flatMap((g) => g.items);
    const credit = items.find((i) => i.key === 'customer_credit');
    expect(credit?.label.th).toContain('วงเงินเครดิต');
  });
});
