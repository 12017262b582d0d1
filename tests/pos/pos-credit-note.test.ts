/**
 * Issue 51 §2, Revenue Code s. 86/10: a partial return of a POS sale that was issued a full tax invoice issues a
 * credit note (the back office's `credit_note`, linked to the sale), dated the day of the return, with the VAT given
 * back in proportion; the sales tax report lists the invoice as issued and the note (negative) in the return's
 * month; the books agree with the report (the note posts nothing: the return's entry books it). A return of an
 * abbreviated sale issues none and nets as before. Prices include VAT 7 %: 3 × 100.00 = 300.00, VAT 19.63.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { thaiTaxId, q, PASSWORD } from '../support/security-fixtures.ts';
import { setSiteSettings } from '../support/site-settings.ts';
import { booksDisagree, lastDay } from '../support/books-agree.ts';
import { entriesOf } from '../support/ledger-fixtures.ts';
import { pdfText, squeeze } from '../support/pdf-text.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;
const buyer = { invoice_type: 'full', buyer_name: 'บริษัท ผู้ซื้อคืน จำกัด', buyer_tax_id: thaiTaxId(105559001), buyer_branch_code: '00000' };

describe.each(testDialects())('the credit note of a POS return on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let shop: Awaited<ReturnType<typeof posShop>>;
  let shift = 0;
  let x = 0;
  let y = 0;
  let n = 0;
  const realNow = businessClock.now;
  const today = () => businessToday(businessClock.now(), businessClock.timeZone);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    shop = await posShop(c);
    x = await c.product({ price: 100 });
    y = await c.product({ price: 53.5 });
    await c.receive(shop.inv, [{ product_id: x, qty: 100, price: 40 }, { product_id: y, qty: 100, price: 20 }]);
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'abbreviated' });
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 0 }), 201)).id;
  });
  afterAll(async () => {
    businessClock.now = realNow;
    await setSiteSettings(t.app, c.admin, { tax_invoice: 'full' }).catch(() => undefined);
    await t?.close();
  });

  const sell = async (items: Array<[number, number]>, extra: Row = {}) => {
    const total = items.reduce((s, [p, qty]) => s + (p === x ? 100 : 53.5) * qty, 0);
    return c.ok(c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: items.map(([product_id, qty]) => ({ product_id, qty })), payments: [{ payment_method_id: shop.cash, amount: total }], ...extra },
      { headers: { ...c.admin, 'idempotency-key': `credit-note-${dialect}-${++n}-key` } }), 201);
  };
  const giveBack = async (sale: Row, items: Array<[number, number]>, reason?: string) => {
    const res = await c.call('POST', `/api/pos_order/${sale.id}/return`, c.admin, { items: items.map(([i, qty]) => ({ line_id: sale.items[i].id, qty })), ...(reason ? { refund_reason: reason } : {}) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().meta.returned as Row;
  };
  const notesOf = async (saleId: number) => (await c.ok(c.call('GET', `/api/credit_note?sort=id&filter=${q({ pos_order_id: { _eq: saleId } })}`, c.admin))) as unknown as Row[];
  const report = async (month: string) => (await c.ok(c.call('GET', `/api/report/sales_tax_report?month=${month}&company=${shop.company}&limit=1000`, c.admin))) as { rows: Row[]; totals: Row };
  const money = (r: Row) => [Number(r.amount_before_vat), Number(r.vat_amount), Number(r.total_amount)];

  it('a partial return of a full tax invoice sale issues a credit note referring to it, with the VAT in proportion', async () => {
    const sale = await sell([[x, 3], [y, 2]], buyer); // 300.00 + 107.00 = 407.00, VAT 26.63
    expect(sale.invoice_type).toBe('full');
    const back = await giveBack(sale, [[0, 1]], 'สินค้าชำรุด'); // one unit of 100.00: VAT 100 × 7 / 107 = 6.54
    expect(back).toMatchObject({ amount: 100, vat: 6.54, refunded_whole: false });
    expect(back.credit_note.doc_no).toMatch(/CN/);
    const note = await c.ok(c.call('GET', `/api/credit_note/${back.credit_note.id}`, c.admin));
    expect(note).toMatchObject({ pos_order_id: sale.id, status: 'issued', doc_date: today(), your_company_id: shop.company, customer_id: null, vat_type: 'include' });
    expect([Number(note.amount_before_vat), Number(note.vat_amount), Number(note.total_amount)]).toEqual([93.46, 6.54, 100]);
    expect(note.items).toHaveLength(1);
    expect(Number(note.items[0].amount)).toBe(100);
    expect(note.items[0].ref_doc).toBe(sale.tax_invoice_no);
    expect(note.remark).toContain('สินค้าชำรุด');
    expect(note.remark).toContain(sale.tax_invoice_no);
    const after = await c.ok(c.call('GET', `/api/pos_order/${sale.id}`, c.admin));
    expect([Number(after.credited_amount), Number(after.credited_vat)]).toEqual([100, 6.54]);
    // the note posts nothing: the return's own entry (dated today) books the money and the VAT once
    expect(await entriesOf(c, 'credit_note', note.id)).toHaveLength(0);
    // its A4 print works as any credit note's; its e-Tax XML is not made (no tax_invoice row to refer to): a 4xx, never a 500
    const pdf = await c.call('GET', `/api/credit_note/${note.id}/pdf`, c.admin);
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    // s. 86/10: the note names the tax invoice it corrects, the POS sale's full tax invoice
    expect(squeeze(pdfText(pdf))).toContain(squeeze(`อ้างอิงใบกำกับภาษีเดิม เลขที่ ${sale.tax_invoice_no}`));
    const xml = await c.call('GET', `/api/credit_note/${note.id}/etax.xml`, c.admin);
    expect(xml.statusCode, xml.body.slice(0, 300)).toBeLessThan(500);

    // a second return of the same sale: a second note, its figures the cumulative remainder (2 × 53.50 = 107.00, VAT 7.00)
    const again = await giveBack(sale, [[1, 2]]);
    const second = await c.ok(c.call('GET', `/api/credit_note/${again.credit_note.id}`, c.admin));
    expect([Number(second.amount_before_vat), Number(second.vat_amount), Number(second.total_amount)]).toEqual([100, 7, 107]);
    expect(second.remark).toContain('รับคืนสินค้า');
    expect((await notesOf(sale.id)).map((r) => r.id)).toEqual([note.id, second.id]);

    // the report: the invoice as issued (407.00, VAT 26.63) and the notes negative, with the sale's buyer
    const got = await report(today().slice(0, 7));
    const inv = got.rows.find((r) => r.doc_no === sale.tax_invoice_no)!;
    expect(money(inv)).toEqual([380.37, 26.63, 407]);
    const listed = got.rows.find((r) => r.doc_no === note.doc_no)!;
    expect(listed).toMatchObject({ doc_type: 'credit_note', doc_date: today(), customer_name: buyer.buyer_name, tax_id: buyer.buyer_tax_id, branch_code: '00000' });
    expect(money(listed)).toEqual([-93.46, -6.54, -100]);
    expect(money(got.rows.find((r) => r.doc_no === second.doc_no)!)).toEqual([-100, -7, -107]);
    expect(await booksDisagree(c, shop.company, today())).toEqual([]);
  });

  it('a return of an abbreviated sale issues no note and nets in the day\'s line as before', async () => {
    const sale = await sell([[x, 2]]);
    expect(sale.invoice_type).toBe('abbreviated');
    const back = await giveBack(sale, [[0, 1]]);
    expect(back.credit_note).toBeNull();
    expect(await notesOf(sale.id)).toEqual([]);
    const after = await c.ok(c.call('GET', `/api/pos_order/${sale.id}`, c.admin));
    expect(Number(after.credited_amount)).toBe(0);
    expect(await booksDisagree(c, shop.company, today())).toEqual([]);
  });

  it('a return in the next month puts its note in that month\'s report, and the books of both months agree', async () => {
    const sale = await sell([[x, 3]], buyer); // 300.00, VAT 19.63
    const month = today().slice(0, 7);
    const next = new Date(`${lastDay(month)}T12:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    businessClock.now = () => next;
    try {
      const back = await giveBack(sale, [[0, 1]]);
      const note = await c.ok(c.call('GET', `/api/credit_note/${back.credit_note.id}`, c.admin));
      expect(note.doc_date).toBe(today());
      expect(today().slice(0, 7)).not.toBe(month);
      const later = await report(today().slice(0, 7));
      expect(money(later.rows.find((r) => r.doc_no === note.doc_no)!)).toEqual([-93.46, -6.54, -100]);
      expect(await booksDisagree(c, shop.company, today())).toEqual([]);
    } finally {
      businessClock.now = realNow;
    }
    // the sale's month keeps its invoice whole
    const first = await report(month);
    expect(money(first.rows.find((r) => r.doc_no === sale.tax_invoice_no)!)).toEqual([280.37, 19.63, 300]);
    expect(first.rows.some((r) => r.doc_type === 'credit_note' && r.doc_id === (sale.id as number))).toBe(false);
    expect(await booksDisagree(c, shop.company, today())).toEqual([]);
  });

  it('a cashier\'s return approved by a supervisor\'s PIN issues the note too (the cashier\'s role has no right on credit notes)', async () => {
    const selling = { pos_order: { view: true, edit: true, print: true }, pos_shift: { view: true, edit: true }, pos: { view: true }, product: { view: true }, payment_method: { view: true } };
    const cashier = await c.staff(`cn_cashier_${dialect}`, selling);
    const boss = await c.staff(`cn_super_${dialect}`, { ...selling, pos_order_refund: { view: true, edit: true } });
    expect((await c.call('PUT', '/api/pos/supervisor-pin', boss.headers, { pin: '731946', password: PASSWORD })).statusCode).toBe(200);
    const sale = await sell([[x, 2]], buyer);
    const res = await c.call('POST', `/api/pos_order/${sale.id}/return`, { ...cashier.headers, 'x-supervisor': boss.username, 'x-supervisor-pin': '731946' }, { items: [{ line_id: sale.items[0].id, qty: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    const note = res.json().meta.returned.credit_note;
    expect(Number(note.total_amount)).toBe(100);
    expect((await notesOf(sale.id)).map((r) => r.id)).toEqual([note.id]);
  });

  it('the sale\'s void cancels its notes; a note cannot be cancelled on its own while the sale stands', async () => {
    const sale = await sell([[x, 3]], buyer);
    const back = await giveBack(sale, [[0, 1]]);
    const alone = await c.call('POST', `/api/credit_note/${back.credit_note.id}/actions/cancel`, c.admin, {});
    expect(alone.statusCode, alone.body).toBe(409);
    expect(alone.json().error.code).toBe('INVALID_TRANSITION');
    expect((await c.ok(c.call('GET', `/api/credit_note/${back.credit_note.id}`, c.admin))).status).toBe('issued');
    await c.ok(c.call('POST', `/api/pos_order/${sale.id}/actions/refund`, c.admin, { refund_reason: 'ยกเลิกบิล' }));
    expect((await c.ok(c.call('GET', `/api/credit_note/${back.credit_note.id}`, c.admin))).status).toBe('cancelled');
    const got = await report(today().slice(0, 7));
    expect(got.rows.some((r) => r.doc_no === back.credit_note.doc_no || r.doc_no === sale.tax_invoice_no)).toBe(false);
    expect(await booksDisagree(c, shop.company, today())).toEqual([]);
  });
});
