/**
 * Issue 9: the site settings that shape a tax invoice: `tax_invoice` (full
 * only, or abbreviated allowed) decides what an invoice must state when it is
 * issued, and `is_enable_customer_ship_to_details` copies the customer's
 * shipping address onto a new invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { ensureSingletonRows } from '../../server/crud/singleton-rows.ts';

type Row = Record<string, any>;

describe.each(testDialects())('tax invoice site settings on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let product: number;
  let site: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    await ensureSingletonRows(t.service, t.registry);
    site = Number((await t.db.kysely.selectFrom('setting_site').select('id').executeTakeFirstOrThrow()).id);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const settings = async (values: Row) => {
    const res = await c.call('PATCH', `/api/setting_site/${site}`, c.admin, values);
    expect(res.statusCode, res.body).toBe(200);
  };
  const draft = async (extra: Row = {}) => {
    const res = await c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-11-21', your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 1, price: 100 }], ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as Row;
  };
  const issue = (id: number) => c.call('POST', `/api/tax_invoice/${id}/actions/issue`, c.admin);

  it('full: the buyer\'s tax id, branch and address are required to issue, and no abbreviated invoice passes', async () => {
    await settings({ tax_invoice: 'full' });
    const a = await draft({ buyer_tax_id: null, buyer_branch_code: null });
    const res = await issue(a.id);
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields.map((f: Row) => f.field)).toEqual(['buyer_tax_id', 'buyer_branch_code']);
    expect((await c.call('GET', `/api/tax_invoice/${a.id}`, c.admin)).json().data).toMatchObject({ status: 'draft', doc_no: null });
    const b = await draft({ invoice_type: 'abbreviated', buyer_tax_id: null });
    expect((await issue(b.id)).json().error.details.fields[0].field).toBe('invoice_type');
    const whole = await draft({ buyer_branch_code: '00000', buyer_address: '99 ถนนสุขุมวิท' });
    expect((await issue(whole.id)).statusCode).toBe(200);
  });

  it('abbreviated: an abbreviated invoice needs no buyer details', async () => {
    await settings({ tax_invoice: 'abbreviated' });
    const a = await draft({ invoice_type: 'abbreviated', buyer_tax_id: null, buyer_branch_code: null, buyer_address: null });
    const res = await issue(a.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.doc_no).toMatch(/^CO\d+-IV/);
  });

  it('a new invoice that names no invoice type takes the site setting tax_invoice (schema key defaultSetting); one that names it keeps it', async () => {
    await settings({ tax_invoice: 'abbreviated' });
    expect((await draft()).invoice_type).toBe('abbreviated');
    expect((await draft({ invoice_type: 'full' })).invoice_type).toBe('full');
    await settings({ tax_invoice: 'full' });
    const made = await draft();
    expect(made.invoice_type).toBe('full');
    // what the answer says is what is stored
    expect((await c.call('GET', `/api/tax_invoice/${made.id}`, c.admin)).json().data.invoice_type).toBe('full');
  });

  it('ship-to details are copied from the customer\'s default shipping address only when the setting is on', async () => {
    const other = await c.customer();
    const addr = { address_type: 'shipping', name: 'คลังสินค้าบางนา', address_line: '88 ถนนบางนา-ตราด', district: 'บางนา', province: 'กรุงเทพมหานคร', postal_code: '10260', is_default: true };
    const res = await c.call('PATCH', `/api/customer/${other}`, c.admin, { addresses: [addr] });
    expect(res.statusCode, res.body).toBe(200);
    await settings({ is_enable_customer_ship_to_details: false });
    expect(await draft({ customer_id: other })).toMatchObject({ ship_to_name: null, ship_to_address: null });
    await settings({ is_enable_customer_ship_to_details: true });
    expect(await draft({ customer_id: other })).toMatchObject({ ship_to_name: 'คลังสินค้าบางนา', ship_to_address: '88 ถนนบางนา-ตราด บางนา กรุงเทพมหานคร 10260' });
    expect(await draft({ customer_id: other, ship_to_address: 'รับเองที่ร้าน' })).toMatchObject({ ship_to_address: 'รับเองที่ร้าน' });
  });
});
