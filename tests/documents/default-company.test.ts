/**
 * Issue 31 §9: the documents' API contract needs no issuing company. A new
 * document's `your_company_id` (schema key `defaultFrom: "company"`) defaults
 * to the caller's only company, else the site's default company, else the only
 * company there is; with several companies and no default the answer says one
 * must be chosen. The demo sets its head company (TPT) as the default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';
import { setSiteSettings } from '../support/site-settings.ts';

type Row = Record<string, any>;

describe.each(testDialects())('the issuing company by default on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customer: number;
  let product: number;
  let first: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  /** The body of the documents issue's contract: no company. */
  const contract = () => ({ customer_id: customer, doc_date: '2026-11-20', vat_type: 'exclude', items: [{ product_id: product, qty: 2, price: 100 }] });
  const post = (entity: string, body: unknown, headers = c.admin) => c.call('POST', `/api/${entity}`, headers, body);
  const defaults = async (entity: string, headers = c.admin): Promise<Row> => {
    const res = await c.call('GET', `/api/${entity}/defaults`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const created = async (entity: string, body: unknown, headers = c.admin): Promise<Row> => {
    const res = await post(entity, body, headers);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };

  it('a business with one company: every document takes it', async () => {
    first = await c.company();
    // a new form asks what the server would give (GET /api/<entity>/defaults) and shows it
    expect(await defaults('quotation')).toEqual({ your_company_id: first });
    expect((await created('quotation', contract())).your_company_id).toBe(first);
    expect((await created('sales_order', contract())).your_company_id).toBe(first);
    expect((await created('receipt', { customer_id: customer, doc_date: '2026-11-20', payment_method: 'cash', items: [{ description: 'มัดจำ', amount: 100 }] })).your_company_id).toBe(first);
    await setSiteSettings(t.app, c.admin, { do_create_type: 'create_without_so' });
    expect((await created('delivery_order', { customer_id: customer, doc_date: '2026-11-20', items: [{ product_id: product, qty: 1 }] })).your_company_id).toBe(first);
  });

  it('several companies and no default: the answer says to choose one, in Thai too; a company sent is kept', async () => {
    const second = await c.company();
    // none to give: the form's picker stays empty
    expect(await defaults('quotation')).toEqual({});
    const refused = await c.call('POST', '/api/quotation', { ...c.admin, 'accept-language': 'th' }, contract());
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(refused.json().error.details.fields).toEqual([expect.objectContaining({ field: 'your_company_id', code: 'company_choice' })]);
    expect(refused.json().error.message).toContain('กรุณาเลือกบริษัท');
    // the same for an empty company sent as null (as a form sends it)
    expect((await post('quotation', { ...contract(), your_company_id: null })).json().error.details.fields).toEqual([expect.objectContaining({ field: 'your_company_id', code: 'company_choice' })]);
    // a value no field can hold is refused first, before any fill (issue 45: the write pipeline validates what was
    // sent before anything computes from it); then what is missing is reported together, the company's choice in
    // place of the plain "is required"
    const bad = await post('quotation', { ...contract(), customer_id: undefined, doc_date: '2026-02-30' });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.json().error.details.fields.map((f: Row) => `${f.field}:${f.code}`)).toEqual(['doc_date:date']);
    const both = await post('quotation', { ...contract(), customer_id: undefined });
    expectError(both, 400, 'VALIDATION_FAILED');
    expect(both.json().error.details.fields.map((f: Row) => `${f.field}:${f.code}`).sort()).toEqual(['customer_id:required', 'your_company_id:company_choice'].sort());
    expect((await created('quotation', { ...contract(), your_company_id: second })).your_company_id).toBe(second);
    // an optional company (a billing note's) stays empty rather than refusing
    expect((await created('billing_note', c.billingNoteBody(customer, null))).your_company_id).toBeNull();
  });

  it('the site\'s default company, unless the caller\'s user type limits them to one company', async () => {
    const second = await c.company();
    await setSiteSettings(t.app, c.admin, { default_company_id: second });
    expect((await created('quotation', contract())).your_company_id).toBe(second);
    expect((await created('sales_order', contract())).your_company_id).toBe(second);
    const branch = await c.staff('branch', { quotation: { view: true, edit: true }, customer: { view: true }, product: { view: true }, your_company: { view: true } }, { company: [first] });
    expect((await created('quotation', contract(), branch.headers)).your_company_id).toBe(first);
    // the form is told the same, per caller; a caller who may not create is refused, an entity without defaultFrom has no such route
    expect(await defaults('quotation')).toEqual({ your_company_id: second });
    expect(await defaults('receipt')).toEqual({ your_company_id: second });
    expect(await defaults('quotation', branch.headers)).toEqual({ your_company_id: first });
    const viewer = await c.staff('viewer', { quotation: { view: true } });
    expectError(await c.call('GET', '/api/quotation/defaults', viewer.headers), 403, 'FORBIDDEN');
    expect((await c.call('GET', '/api/customer/defaults', c.admin)).statusCode).not.toBe(200);
    // limited to several companies, the default among them: the default
    const both = await c.staff('both', { quotation: { view: true, edit: true }, customer: { view: true }, product: { view: true }, your_company: { view: true } }, { company: [first, second] });
    expect((await created('quotation', contract(), both.headers)).your_company_id).toBe(second);
    // create-from goes through create: the order's company is kept
    const q = await created('quotation', { ...contract(), your_company_id: first });
    await c.call('POST', `/api/quotation/${q.id}/actions/approve`, c.admin);
    const so = await c.call('POST', '/api/sales_order/from/quotation', c.admin, { ids: [q.id] });
    expect(so.statusCode, so.body).toBe(201);
    expect(so.json().data.your_company_id).toBe(first);
  });
});

describe.each(testDialects())('the demo business on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
  }, 120_000);
  afterAll(async () => t?.close());

  it('takes the contract body: POST /api/quotation { customer_id, doc_date, vat_type, items } is issued by TPT', async () => {
    const idOf = async (entity: string, code: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/${entity}?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`, headers: t.headers });
      return res.json().data[0].id as number;
    };
    const body = { customer_id: await idOf('customer', 'C001'), doc_date: '2026-11-20', vat_type: 'exclude', items: [{ product_id: (await t.app.inject({ method: 'GET', url: '/api/product?limit=1', headers: t.headers })).json().data[0].id, qty: 1, price: 100 }] };
    for (const entity of ['quotation', 'sales_order']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/${entity}`, headers: t.headers, payload: body });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.your_company_id).toBe(await idOf('your_company', 'TPT'));
    }
  });
});
