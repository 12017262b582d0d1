/**
 * Issue 50, the 50 ทวิ customers hand us: the receipt records the tax a customer withheld (wht_amount, debited to
 * wht_receivable) and the certificate's number and date, which may be recorded after posting, when the certificate
 * arrives; the report `wht_received` lists the month's receipts with tax withheld, per company, the certificate or
 * its absence, and its total is the month's wht_receivable movement in the trial balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('the register of 50 ทวิ received on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const act = (entity: string, id: number, action: string) => c.ok(c.action(entity, id, action));
  /** A posted receipt of an issued bill of `price` + 7 % VAT, `values` on the receipt (wht_amount…). */
  const receipt = async (company: number, customer: number, price: number, values: Row = {}, post = true): Promise<Row> => {
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', wht_rate: 3, items: [{ product_id: product, qty: 1, price }] }), 201);
    await act('sales_order', so.id, 'approve');
    const bn = await act('billing_note', (await c.ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id] }), 201)).id, 'issue');
    const r = await c.ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id], values: { payment_method: 'transfer', ...values } }), 201);
    return post ? act('receipt', r.id, 'post') : r;
  };
  const report = async (query: Row) => c.ok(c.call('GET', `/api/report/wht_received?${new URLSearchParams(query).toString()}`, c.admin)) as unknown as Promise<{ rows: Row[]; totals: Row }>;

  it('lists the month\'s posted receipts with tax withheld, of the company asked, with the certificate or its absence', async () => {
    const company = await c.company();
    const other = await c.company();
    const customer = await c.customer();
    const taxId = (await c.ok(c.call('GET', `/api/customer/${customer}`, c.admin))).tax_id;
    const withCert = await receipt(company, customer, 10000, { wht_amount: 300, wht_certificate_no: 'WT-2026-0042', wht_certificate_date: '2026-11-20' });
    const noCert = await receipt(company, customer, 5000, { wht_amount: 150 });
    await receipt(company, customer, 1000); // nothing withheld: not listed
    await receipt(company, customer, 2000, { wht_amount: 60 }, false); // a draft: not listed
    const cancelled = await receipt(company, customer, 2000, { wht_amount: 60 });
    await act('receipt', cancelled.id, 'cancel'); // cancelled: not listed
    await receipt(other, customer, 3000, { wht_amount: 90 }); // another company's
    const month = String(withCert.doc_date).slice(0, 7);

    const got = await report({ month, company: String(company) });
    expect(got.rows.map((r) => r.doc_no)).toEqual([withCert.doc_no, noCert.doc_no].sort());
    const row = got.rows.find((r) => r.doc_no === withCert.doc_no)!;
    expect(row).toMatchObject({
      doc_id: withCert.id, tax_id: taxId, doc_date: withCert.doc_date, amount_before_vat: 10000, wht_amount: 300,
      wht_certificate_no: 'WT-2026-0042', wht_certificate_date: '2026-11-20',
    });
    expect(row.customer_name).toContain('ลูกค้า');
    expect(got.rows.find((r) => r.doc_no === noCert.doc_no)).toMatchObject({ wht_amount: 150, wht_certificate_no: null, wht_certificate_date: null });
    expect(got.totals).toMatchObject({ amount_before_vat: 15000, wht_amount: 450 });
    // every company's without the parameter; none in another month
    expect((await report({ month })).rows.map((r) => r.wht_amount).sort()).toEqual([150, 300, 90].sort());
    const [y, m] = month.split('-').map(Number) as [number, number];
    const before = m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
    expect((await report({ month: before, company: String(company) })).rows).toEqual([]);

    // the total is the month's wht_receivable movement in the books (the cancelled receipt's entry and reversal cancel out)
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const tb = await c.ok(c.call('GET', `/api/report/trial_balance?date_from=${month}-01&date_to=${last}&company=${company}&limit=500`, c.admin)) as unknown as { rows: Row[] };
    const wht = tb.rows.find((r) => r.role === 'wht_receivable')!;
    expect(Math.round((wht.debit - wht.credit) * 100)).toBe(45000);

    // the certificate not received yet: only those; recording it after posting takes the receipt off that list
    expect((await report({ month, company: String(company), missing_only: 'true' })).rows.map((r) => r.doc_no)).toEqual([noCert.doc_no]);
    const recorded = await c.ok(c.call('PATCH', `/api/receipt/${noCert.id}`, c.admin, { wht_certificate_no: 'ลค-0099', wht_certificate_date: '2026-11-25' }));
    expect(recorded).toMatchObject({ status: 'posted', wht_certificate_no: 'ลค-0099', wht_certificate_date: '2026-11-25', wht_amount: 150 });
    expect((await report({ month, company: String(company), missing_only: 'true' })).rows).toEqual([]);
    // the amounts of a posted receipt stay locked
    expectError(await c.call('PATCH', `/api/receipt/${noCert.id}`, c.admin, { wht_amount: 100 }), 409, 'DOCUMENT_LOCKED');
  });

  it('is a tax report with Thai labels, per operator', async () => {
    const list = (await c.call('GET', '/api/report', { ...c.admin, 'accept-language': 'th' })).json().data as Row[];
    const meta = list.find((r) => r.name === 'wht_received')!;
    expect(meta.menuGroup).toBe('tax_reports');
    expect(meta.label.th).toBe('ทะเบียนภาษีถูกหัก ณ ที่จ่าย (50 ทวิ ที่ได้รับจากลูกค้า)');
    expect(meta.parameters.map((p: Row) => p.name)).toEqual(['month', 'company', 'missing_only']);
    expect(meta.columns.find((col: Row) => col.key === 'wht_certificate_no').label.th).toBe('เลขที่หนังสือรับรอง 50 ทวิ');
  });
});
