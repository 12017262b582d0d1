/**
 * Issue 8 §4: fills and link checks read through the caller's rights. A role
 * that may not read a contact cannot copy its phone into a prospect, and a
 * link to a row the caller cannot see answers exactly like a link to a row
 * that does not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, type Headers } from '../support/security-fixtures.ts';

const MOBILE = '089-111-2233';
const EMAIL = 'secret.buyer@example.co.th';

describe.each(testDialects())('links and fills inside the caller\'s rights on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let contact: number;
  let seller: Headers;
  let reader: Headers;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.make('company', { type: 'customer', customer_name_th: 'บริษัท ลูกค้าลับ จำกัด', status: 'active' });
    contact = await c.make('contact', { contact_name: 'คุณลับ', customer_id: company, mobile_number: MOBILE, email: EMAIL });
    seller = (await c.staff('lr_seller', { prospect: { view: true, edit: true }, company: { view: true } })).headers;
    reader = (await c.staff('lr_reader', { prospect: { view: true, edit: true }, company: { view: true }, contact: { view: true } })).headers;
  });
  afterAll(async () => t?.close());

  const prospect = (contactId: number) => ({ customer_id: company, contact_id: contactId, product_detail: 'ฟิล์มยืด 500 ม้วน' });

  it('the contact cannot be read, so it cannot be linked and nothing of it is copied', async () => {
    expectError(await c.call('GET', `/api/contact/${contact}`, seller), 403, 'FORBIDDEN');
    const res = await c.call('POST', '/api/prospect', seller, prospect(contact));
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body).not.toContain(MOBILE);
    expect(res.body).not.toContain(EMAIL);
    expect(res.json().error.details.fields[0].field).toBe('contact_id');
  });

  it('an unreadable row and a made-up id get the same answer, so ids cannot be probed', async () => {
    const hidden = await c.call('POST', '/api/prospect', seller, prospect(contact));
    const missing = await c.call('POST', '/api/prospect', seller, prospect(987654));
    expect(hidden.json().error.message.replace(String(contact), 'N')).toBe(missing.json().error.message.replace('987654', 'N'));
  });

  it('a role that may read the contact gets the fill', async () => {
    const res = await c.call('POST', '/api/prospect', reader, prospect(contact));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ contact_mobile: MOBILE, contact_email: EMAIL });
  });

  it('a record keeps a link its writer cannot see when the write does not change it', async () => {
    const made = await c.call('POST', '/api/prospect', c.admin, prospect(contact));
    const id = made.json().data.id;
    const res = await c.call('PATCH', `/api/prospect/${id}`, seller, { product_detail: 'ฟิล์มยืด 800 ม้วน' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.contact_id).toBe(contact);
  });
});
