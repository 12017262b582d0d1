/**
 * Billing notes and receipts name the documents they bill and settle (issue 34
 * §1): a billing note made from two sales orders prints each order's number,
 * date and due date on its line; the receipt made from the note prints the
 * note's number, date and due date, how it was paid (cheque: bank, number,
 * date), the tax withheld and the net amount. Read from the PDF with pdftotext.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;
/** Without spaces and Thai marks: pdftotext gives a shifted mark out of order. */
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]+/g, '');

function pdfLines(res: LightMyRequestResponse): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'bo-billed-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    return execFileSync('pdftotext', ['-layout', join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' }).normalize('NFKC').split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('billed and settled documents in the PDF on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number, customer: number, product: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    product = await c.product();
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const act = (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));
  const order = async (date: string, price: number): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, { doc_date: date, your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price }] }), 201);
    return act('sales_order', so.id, 'approve');
  };

  it('prints, on each line of the note, the order billed with its number and date, and on the receipt the note settled and the payment', async () => {
    const a = await order('2026-10-05', 1000);
    const b = await order('2026-10-12', 2000);
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [a.id, b.id], values: { bill_date: '2026-11-03' } }), 201);
    expect(bn.items).toHaveLength(2);
    await act('billing_note', bn.id, 'issue');
    const noteLines = pdfLines(await c.call('GET', `/api/billing_note/${bn.id}/pdf`, c.admin));
    for (const [so, date, amount] of [[a, '5 ตุลาคม 2569', '1,070.00'], [b, '12 ตุลาคม 2569', '2,140.00']] as const) {
      const line = noteLines.find((l) => l.includes(String(so.doc_no ?? so.so_no ?? so.order_no)));
      expect(line, `no line names ${JSON.stringify(so).slice(0, 200)}`).toBeDefined();
      expect(line).toContain(date);
      expect(line).toContain(amount);
    }

    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, {
      ids: [bn.id], values: { doc_date: '2026-11-20', payment_method: 'cheque', bank_name: 'ธนาคารกรุงเทพ', payment_ref: 'CHQ-778812', payment_date: '2026-11-19', wht_amount: 90 },
    }), 201);
    const rcLines = pdfLines(await c.call('GET', `/api/receipt/${r.id}/pdf`, c.admin));
    const settled = rcLines.filter((l) => l.includes(bn.bill_no));
    expect(settled.length).toBeGreaterThanOrEqual(1);
    expect(settled[0]).toContain('3 พฤศจิกายน 2569');
    // the note's due date: 30 days of credit from the bill date
    expect(bn.due_date).toBe('2026-12-03');
    expect(settled[0]).toContain('3 ธันวาคม 2569');
    const all = squeeze(rcLines.join('\n'));
    expect(all).toContain(squeeze('การชำระเงิน'));
    expect(all).toContain(squeeze('เช็ค'));
    expect(all).toContain(squeeze('ธนาคารกรุงเทพ'));
    expect(all).toContain('CHQ-778812');
    expect(all).toContain(squeeze('19 พฤศจิกายน 2569'));
    expect(all).toContain(squeeze('ภาษีหัก ณ ที่จ่าย'));
    expect(all).toContain('90.00');
    expect(all).toContain('3,120.00');
  });

  it('a line refers to one of the customer\'s issued tax invoices, chosen by link, and prints its number, date and due date', async () => {
    const invoice = async (cust: number, issue: boolean): Promise<Row> => {
      const iv = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date: '2026-10-20', your_company_id: company, customer_id: cust, vat_type: 'exclude', credit_term_days: 30, items: [{ product_id: product, qty: 1, price: 1000 }] }), 201);
      return issue ? act('tax_invoice', iv.id, 'issue') : iv;
    };
    const mine = await invoice(customer, true);
    const draft = await invoice(customer, false);
    const theirs = await invoice(await c.customer(), true);
    const body = (tax_invoice_id: number) => ({ bill_date: '2026-11-03', customer_id: customer, your_company_id: company, total_amount: 1070, items: [{ tax_invoice_id, description: 'ค่าสินค้า', amount: 1070 }] });
    for (const other of [theirs.id, draft.id]) {
      const refused = await c.call('POST', '/api/billing_note', c.admin, body(other));
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json().error.details.fields.map((f: Row) => [f.field, f.code])).toContainEqual(['items.0.tax_invoice_id', 'link_filter']);
    }
    const bn = await ok(c.call('POST', '/api/billing_note', c.admin, body(mine.id)), 201);
    const line = pdfLines(await c.call('GET', `/api/billing_note/${bn.id}/pdf`, c.admin)).find((l) => l.includes(mine.doc_no));
    expect(line, `the note's PDF names ${mine.doc_no}`).toBeDefined();
    expect(line).toContain('20 ตุลาคม 2569');
    expect(line).toContain('19 พฤศจิกายน 2569');
    expect(line).toContain('1,070.00');
  });
});
