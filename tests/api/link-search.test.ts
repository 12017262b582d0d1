/**
 * Issue 38 §4: a document list's search finds through the linked customer's or
 * supplier's code and names (searchFields "customer_id.name_th", one step) and by
 * an exact amount, and never through a customer the caller may not read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, thaiTaxId, type Headers } from '../support/security-fixtures.ts';
import { loadSchemaSet } from '../../engine/schema/schema-loader.ts';

type Row = Record<string, any>;

describe.each(testDialects())('search through links on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let siam: { id: number; code: string };
  let other: number;
  let company: number;
  let bills: { siam: Row; other: Row };
  let quote: Row;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    const code = c.next('C-SIAM-');
    siam = { code, id: await c.make('customer', { code, customer_type: 'juristic', name_th: 'บริษัท สยามฟู้ดแพ็ค จำกัด', name_en: 'Siam Food Pack Co., Ltd.', tax_id: thaiTaxId(745549999), branch_code: '00000', credit_term_days: 30 }) };
    other = await c.customer();
    const bill = async (customer: number, amount: number) => {
      const res = await c.call('POST', '/api/billing_note', c.admin, { ...c.billingNoteBody(customer, company), items: [{ description: 'ค่าสินค้า', amount }], total_amount: amount });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as Row;
    };
    bills = { siam: await bill(siam.id, 21400), other: await bill(other, 5000) };
    const product = await c.product();
    const q = await c.call('POST', '/api/quotation', c.admin, { doc_date: '2026-11-02', your_company_id: company, customer_id: siam.id, vat_type: 'exclude', items: [{ product_id: product, qty: 2, price: 1000 }] });
    expect(q.statusCode, q.body).toBe(201);
    quote = q.json().data;
  });
  afterAll(async () => t?.close());

  const found = async (entity: string, search: string, headers: Headers = c.admin): Promise<number[]> => {
    const res = await c.call('GET', `/api/${entity}?search=${encodeURIComponent(search)}&limit=100`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Row[]).map((r) => r.id as number);
  };

  it('finds billing notes and quotations by part of the customer\'s Thai or English name and by its code', async () => {
    expect(await found('billing_note', 'สยาม')).toEqual([bills.siam.id]);
    expect(await found('billing_note', 'สยามฟู้ดแพ็ค')).toEqual([bills.siam.id]);
    expect(await found('billing_note', 'food pack')).toEqual([bills.siam.id]);
    expect(await found('billing_note', siam.code.toLowerCase())).toEqual([bills.siam.id]);
    expect(await found('quotation', 'สยาม')).toEqual([quote.id]);
    // the document's own number is still found, and the count follows the same search
    expect(await found('billing_note', bills.other.bill_no)).toEqual([bills.other.id]);
    const counted = await c.call('GET', '/api/billing_note?search=%E0%B8%AA%E0%B8%A2%E0%B8%B2%E0%B8%A1&meta=total_count', c.admin);
    expect(counted.json().meta.total_count ?? counted.json().meta.total).toBe(1);
  });

  it('finds a document by its exact amount, written with or without thousands separators', async () => {
    const total = bills.siam.total_amount as number;
    expect(await found('billing_note', String(total))).toEqual([bills.siam.id]);
    expect(await found('billing_note', total.toLocaleString('en-US', { minimumFractionDigits: 2 }))).toEqual([bills.siam.id]);
    expect(await found('quotation', String(quote.total_amount))).toEqual([quote.id]);
    // a part of an amount is not the amount
    expect(await found('billing_note', String(total).slice(0, 3))).toEqual([]);
  });

  it('does not find documents through customers the caller may not read', async () => {
    const clerk = await c.staff('bnclerk', { billing_note: { view: true } });
    expect(await found('billing_note', 'สยาม', clerk.headers)).toEqual([]);
    expect(await found('billing_note', siam.code, clerk.headers)).toEqual([]);
    // what is the clerk's to read still is found
    expect(await found('billing_note', bills.siam.bill_no, clerk.headers)).toEqual([bills.siam.id]);
    const reader = await c.staff('bnreader', { billing_note: { view: true }, customer: { view: true } });
    expect(await found('billing_note', 'สยาม', reader.headers)).toEqual([bills.siam.id]);
  });
});

describe('searchFields in schema files', () => {
  const base = { name: 'thing', label: { th: 'ของ', en: 'Thing' }, labelPlural: { th: 'ของ', en: 'Things' }, kind: 'master', titleField: 'code' };
  const customer = { name: 'customer', label: { th: 'ลูกค้า', en: 'Customer' }, kind: 'master', titleField: 'code', fields: { code: { type: 'string', label: { th: 'รหัส', en: 'Code' } }, is_active: { type: 'boolean', label: { th: 'ใช้', en: 'Active' } } } };
  const load = (searchFields: string[]) => () => loadSchemaSet([
    { file: 'customer.json', text: JSON.stringify(customer) },
    { file: 'thing.json', text: JSON.stringify({ ...base, searchFields, fields: {
      code: { type: 'string', label: { th: 'รหัส', en: 'Code' } },
      total: { type: 'money', label: { th: 'รวม', en: 'Total' } },
      doc_date: { type: 'date', label: { th: 'วันที่', en: 'Date' } },
      customer_id: { type: 'link', entity: 'customer', label: { th: 'ลูกค้า', en: 'Customer' } },
    } }) },
  ]);
  it('accepts text and number fields and a text field one link away', () => {
    expect(load(['code', 'total', 'customer_id.code'])).not.toThrow();
  });
  it('refuses a date, a link itself, a field the target lacks, two steps and a boolean through a link', () => {
    expect(load(['doc_date'])).toThrow(/searchFields\/0.*date field/s);
    expect(load(['customer_id'])).toThrow(/searchFields\/0.*link field/s);
    expect(load(['customer_id.name_xx'])).toThrow(/"name_xx" is not a field of customer/);
    expect(load(['customer_id.code.x'])).toThrow(/searchFields\/0/);
    expect(load(['customer_id.is_active'])).toThrow(/boolean field/);
    expect(load(['code.name'])).toThrow(/"code" is not a link field/);
  });
});
