/** The demo year of sales and collection history loads through the engine and leaves a realistic picture (issue 9). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedFinanceHistory } from '../../seed/demo-finance.ts';

describe.each(testDialects())('demo finance history on %s', (dialect) => {
  let t: TestApp;
  let counts: Record<string, number>;
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    counts = await seedFinanceHistory(t.service);
  }, 120_000);
  afterAll(async () => t?.close());

  it('makes a year of documents, numbered in their own months', async () => {
    expect(counts).toEqual({ quotation: 24, sales_order: 25, billing_note: 24, receipt: 41, tax_invoice: 22, credit_note: 1, debit_note: 1, withholding_tax: 4 });
    const sos = await get('/api/sales_order?limit=500&fields=doc_no,doc_date');
    for (const so of sos) expect(so.doc_no.slice(2, 8)).toBe(so.doc_date.slice(0, 7).replace('-', ''));
    // invoicing is not delivering (issue 31 §6): older orders are closed, the last two months' billed but not delivered
    const orders = await get('/api/sales_order?limit=500&fields=status,delivery_status,billing_status&filter={"customer_reference":{"_null":true}}');
    const tally = new Map<string, number>();
    for (const o of orders) tally.set(`${o.status}/${o.delivery_status}/${o.billing_status}`, (tally.get(`${o.status}/${o.delivery_status}/${o.billing_status}`) ?? 0) + 1);
    expect(Object.fromEntries(tally)).toEqual({ 'closed/not_delivered/billed': 18, 'in_progress/not_delivered/billed': 4, 'approved/not_delivered/not_billed': 2 });
    const quotations = await get('/api/quotation?limit=500&fields=status');
    expect(new Set(quotations.map((q: { status: string }) => q.status))).toEqual(new Set(['partially_ordered']));
  });

  it('gives no sale two tax invoices; November\'s sales tax report has the receipt that serves as one (issue 44 §2)', async () => {
    const receipts = await get('/api/receipt?limit=500&fields=id,doc_no,tax_invoice_role,status');
    const taxReceipts = receipts.filter((r: { tax_invoice_role: string }) => r.tax_invoice_role !== 'none');
    // every receipt of a billed order came after its order's tax invoice; only the counter sale's serves as one
    expect(taxReceipts.map((r: { tax_invoice_role: string }) => r.tax_invoice_role)).toEqual(['full']);
    const company = (await get('/api/your_company?limit=1&fields=id&filter={"code":{"_eq":"TPT"}}'))[0].id;
    const report = await get(`/api/report/sales_tax_report?month=2026-11&company=${company}&limit=1000`);
    expect(report.rows.filter((r: { doc_no: string }) => r.doc_no === taxReceipts[0].doc_no)).toHaveLength(1);
    // one tax document per sale: no invoiced order has a receipt that is a tax invoice
    const invoices = await get('/api/tax_invoice?limit=500&fields=id,status');
    expect(invoices.length).toBe(22);
  });

  it('leaves bills paid, partly paid and open, which the collection summary ages', async () => {
    const bills = await get('/api/billing_note?limit=500&fields=status');
    const by = (s: string) => bills.filter((b: { status: string }) => b.status === s).length;
    expect([by('paid'), by('partially_paid'), by('issued')]).toEqual([18, 4, 2 + 4]);
    const summary = await get('/api/report/collection_summary?to=2026-11-30');
    expect(summary.totals.outstanding).toBeGreaterThan(0);
    // issue 31: settled = money received + tax withheld, summed in satang
    const satang = (n: number) => Math.round(n * 100);
    // (issue 44 §1: the summary also counts money received straight from an order, the demo's counter sale, which
    // settles no bill: `received_direct`, part of `received`)
    expect(satang(summary.totals.received_direct)).toBeGreaterThan(0);
    expect(satang(summary.totals.billed)).toBe(satang(summary.totals.received) - satang(summary.totals.received_direct) + satang(summary.totals.withheld) + satang(summary.totals.outstanding));
    const wht = await get('/api/withholding_tax?limit=10&fields=doc_no,tax_amount,status,payee_tax_id,supplier_id.tax_id');
    // 15.00: the 1 % withheld on the demo's payment voucher for transport (seed/demo/416-payment_voucher.json, 417-withholding_tax.json)
    expect(wht.map((w: { tax_amount: number }) => w.tax_amount).sort((a: number, b: number) => a - b)).toEqual([15, 185, 370.37, 640, 2250]);
    // each certificate names its payee by the supplier's tax id (the 50 ทวิ and the ภ.ง.ด.53 attachment print it)
    for (const w of wht) expect(w.payee_tax_id, w.doc_no).toMatch(/^\d{13}$/);
    expect(wht.map((w: Record<string, unknown>) => w.payee_tax_id)).toEqual(wht.map((w: Record<string, any>) => w.supplier_id?.tax_id ?? w['supplier_id.tax_id']));
  });
  it('has paid purchase invoices: a voucher by transfer with 1 % withheld and its 50 ทวิ, and a part paid by cheque (issue 50)', async () => {
    const vouchers = await get('/api/payment_voucher?limit=10&sort=doc_date&fields=id,doc_no,status,wht_amount,net_amount,payment_method');
    expect(vouchers.map((v: Record<string, unknown>) => [v.status, v.payment_method, v.wht_amount])).toEqual([['posted', 'transfer', 15], ['posted', 'cheque', 0]]);
    const invoices = await get(`/api/purchase_invoice?limit=10&fields=supplier_invoice_no,status&filter=${encodeURIComponent(JSON.stringify({ supplier_invoice_no: { _in: ['IV-S001-2611-0470', 'IV-S001-2611-0458'] } }))}`);
    expect(Object.fromEntries(invoices.map((p: Record<string, unknown>) => [p.supplier_invoice_no, p.status]))).toEqual({ 'IV-S001-2611-0470': 'paid', 'IV-S001-2611-0458': 'partially_paid' });
    const certs = await get(`/api/withholding_tax?fields=payment_voucher_id,status,tax_amount&filter=${encodeURIComponent(JSON.stringify({ payment_voucher_id: { _eq: vouchers[0].id } }))}`);
    expect(certs).toMatchObject([{ status: 'issued', tax_amount: 15 }]);
  });
});
