/**
 * Issue 38 §1: a receipt line typed by hand names a real bill, one of the customer's open ones
 * (issued or partially paid: a link filter with a list of states), and settles it exactly as a
 * receipt made from the bill does: naming BN… and posting moves the bill to partially paid, then paid.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

/** The text of a PDF (pdftotext). */
function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-rc-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    return execFileSync('pdftotext', [join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('receipt lines naming a bill on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  let products: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
    products = [await c.product(), await c.product()];
  });
  afterAll(async () => t?.close());

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const get = async (entity: string, id: number) => ok(c.call('GET', `/api/${entity}/${id}`, c.admin));
  const act = async (entity: string, id: number, action: string) => ok(c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin));

  /** An issued bill of 11,770 (10,700 + 1,070, VAT excluded) for `who`, made from an approved order. */
  const bill = async (who = customer, issue = true): Promise<Row> => {
    const so = await ok(c.call('POST', '/api/sales_order', c.admin, {
      doc_date: '2026-11-02', your_company_id: company, customer_id: who, vat_type: 'exclude',
      items: [{ product_id: products[0], qty: 10, price: 1000 }, { product_id: products[1], qty: 4, price: 250 }],
    }), 201);
    await act('sales_order', so.id, 'approve');
    const bn = await ok(c.call('POST', '/api/billing_note/from/sales_order', c.admin, { ids: [so.id], values: { bill_date: '2026-11-02' } }), 201);
    expect(bn.total_amount).toBe(11770);
    if (issue) await act('billing_note', bn.id, 'issue');
    return get('billing_note', bn.id);
  };
  const receipt = (items: Row[], who = customer) => c.call('POST', '/api/receipt', c.admin, {
    doc_date: '2026-11-20', your_company_id: company, customer_id: who, vat_type: 'exclude', payment_method: 'cash', items,
  });

  it('a hand-typed line naming the bill is spread over its open lines and settles it as a receipt from the bill does', async () => {
    const bn = await bill();
    const r1 = await ok(receipt([{ billing_note_id: bn.id, description: 'รับชำระตามใบวางบิล', amount: 10000 }]), 201);
    // 10,700 is open on the bill's first line: the 10,000 fits there
    expect(r1.items).toEqual([expect.objectContaining({ billing_note_id: bn.id, source_entity: 'billing_note', source_line_id: bn.items[0].id, amount: 10000 })]);
    await act('receipt', r1.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
    // the printed receipt names the bill it settles
    const pdf = await c.call('GET', `/api/receipt/${r1.id}/pdf`, c.admin);
    expect(pdf.statusCode).toBe(200);
    expect(pdfText(pdf.rawPayload)).toContain(bn.bill_no);
    // the rest, 1,770, takes the 700 left on line 1 and the 1,070 of line 2
    const r2 = await ok(receipt([{ billing_note_id: bn.id, description: 'ส่วนที่เหลือ', amount: 1770 }]), 201);
    expect(r2.items.map((l: Row) => [l.source_line_id, l.amount, l.billing_note_id, l.description])).toEqual([
      [bn.items[0].id, 700, bn.id, 'ส่วนที่เหลือ'], [bn.items[1].id, 1070, bn.id, 'ส่วนที่เหลือ'],
    ]);
    expect(r2.total_amount).toBe(1770);
    await act('receipt', r2.id, 'post');
    expect((await get('billing_note', bn.id)).status).toBe('paid');
    // the bill no longer counts as owed: the receipt from the bill has nothing left to take
    expect((await ok(c.call('GET', `/api/receipt/from/billing_note?ids=${bn.id}`, c.admin)) as unknown as Row[]).map((l) => l.remaining)).toEqual([0, 0]);
    // cancelling gives it back, as for a receipt made from the bill
    await act('receipt', r2.id, 'cancel');
    expect((await get('billing_note', bn.id)).status).toBe('partially_paid');
  });

  it('a spread line that is given another bill is spread again over that one', async () => {
    const [a, b] = [await bill(), await bill()];
    const r = await ok(receipt([{ billing_note_id: a.id, description: 'รับชำระ', amount: 500 }]), 201);
    expect(r.items[0].source_line_id).toBe(a.items[0].id);
    const moved = await ok(c.call('PATCH', `/api/receipt/${r.id}`, c.admin, { items: [{ id: r.items[0].id, source_entity: 'billing_note', source_line_id: r.items[0].source_line_id, description: 'รับชำระ', amount: 500, billing_note_id: b.id }] }));
    expect(moved.items.map((l: Row) => [l.billing_note_id, l.source_line_id, l.amount])).toEqual([[b.id, b.items[0].id, 500]]);
    await act('receipt', r.id, 'post');
    expect((await get('billing_note', b.id)).status).toBe('partially_paid');
    expect((await get('billing_note', a.id)).status).toBe('issued');
  });

  it('more than the bill has open is refused at posting, naming the bill', async () => {
    const bn = await bill();
    const r = await ok(receipt([{ billing_note_id: bn.id, amount: 11770.01 }]), 201);
    const refused = await c.call('POST', `/api/receipt/${r.id}/actions/post`, c.admin);
    expectError(refused, 409, 'OVER_PROCESSED');
    expect(refused.json().error.details.source).toBe(bn.bill_no ?? bn.doc_no);
    expect((await get('billing_note', bn.id)).status).toBe('issued');
  });

  it('a receipt whose VAT type differs from the bill\'s is refused at posting, saying so in Thai', async () => {
    const bn = await bill();
    const r = await ok(c.call('POST', '/api/receipt', c.admin, {
      doc_date: '2026-11-20', your_company_id: company, customer_id: customer, vat_type: 'include', payment_method: 'cash',
      items: [{ billing_note_id: bn.id, amount: 100 }],
    }), 201);
    const refused = await c.call('POST', `/api/receipt/${r.id}/actions/post`, c.admin, undefined, { headers: { ...c.admin, 'accept-language': 'th' } });
    expectError(refused, 400, 'VALIDATION_FAILED');
    const [f] = refused.json().error.details.fields;
    expect(f).toMatchObject({ field: 'items.0.source_line_id', code: 'source_header' });
    expect(f.message).toContain('ภาษีมูลค่าเพิ่ม');
    expect(f.message).toContain(bn.bill_no);
    expect((await get('billing_note', bn.id)).status).toBe('issued');
  });

  it('only the customer\'s open bills can be named: a draft, a paid one or another customer\'s is refused', async () => {
    const draft = await bill(customer, false);
    const other = await bill(await c.customer());
    const paid = await bill();
    await act('receipt', (await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [paid.id] }), 201)).id, 'post');
    expect((await get('billing_note', paid.id)).status).toBe('paid');
    for (const id of [draft.id, other.id, paid.id]) {
      const res = await receipt([{ billing_note_id: id, amount: 100 }]);
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'items.0.billing_note_id', code: 'link_filter' })]);
    }
    // the picker's filter, as the form asks for it, lists just the open ones of this customer
    const open = await bill();
    const filter = encodeURIComponent(JSON.stringify({ customer_id: { _eq: customer }, status: { _in: ['issued', 'partially_paid'] } }));
    const listed = (await ok(c.call('GET', `/api/billing_note?filter=${filter}&limit=500`, c.admin)) as unknown as Row[]).map((r) => r.id);
    expect(listed).toContain(open.id);
    expect(listed).not.toContain(draft.id);
    expect(listed).not.toContain(paid.id);
    expect(listed).not.toContain(other.id);
  });

  it('a receipt made from the bill names it on its lines too', async () => {
    const bn = await bill();
    const r = await ok(c.call('POST', '/api/receipt/from/billing_note', c.admin, { ids: [bn.id] }), 201);
    expect(r.items.map((l: Row) => l.billing_note_id)).toEqual([bn.id, bn.id]);
  });
});
