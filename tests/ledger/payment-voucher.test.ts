/**
 * Issue 50 §2, payments to suppliers: a payment voucher (ใบสำคัญจ่าย) made from approved purchase invoices
 * posts Dr payable (what it settles, tax withheld included) / Cr cash or bank (the money paid) / Cr wht_payable
 * (the tax withheld), as its schema's `document.journal` declares (docs/accounting.md); the invoice follows it
 * to partially paid and paid, over-payment is refused, and cancelling reverses the entry and reopens the invoice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { expectError } from '../support/security-fixtures.ts';
import { byRole as rolesOf, entriesOf as readEntries, accountsById } from '../support/ledger-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('payment vouchers on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let supplier: number;
  /** account id → account (its role) */
  let accounts: Map<number, Row>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    supplier = await c.supplier();
    accounts = await accountsById(c);
  });
  afterAll(async () => t?.close());

  const act = (entity: string, id: number, action: string) => c.ok(c.action(entity, id, action));
  const voucherFrom = (body: Row) => c.call('POST', '/api/payment_voucher/from/purchase_invoice', c.admin, body);
  const statusOf = async (entity: string, id: number) => (await c.ok(c.call('GET', `/api/${entity}/${id}`, c.admin))).status;

  const entriesOf = (entity: string, id: number) => readEntries(c, entity, id);
  const byRole = (entry: Row) => rolesOf(accounts, entry);

  /** An approved purchase invoice of 1,000.00 + 7 % VAT = 1,070.00, 3 % withheld on 1,000.00. */
  const approvedInvoice = async (n: string): Promise<number> => {
    const pi = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, {
      supplier_id: supplier, your_company_id: company, vat_type: 'exclude', wht_rate: 3,
      supplier_invoice_no: `SUP-PV-${dialect}-${n}`, supplier_invoice_date: '2026-11-20',
      items: [{ description: 'ค่าบริการซ่อมเครื่องจักร', qty: 1, price: 1000 }],
    }), 201);
    await act('purchase_invoice', pi.id, 'approve');
    return pi.id;
  };

  it('pays an invoice in two vouchers with 3 % withheld, posting payable, bank or cash and wht_payable', async () => {
    const pi = await approvedInvoice('1');
    // half the invoice (535.00 = 500.00 + 35.00 VAT) by transfer, 3 % of 500.00 withheld
    const v1 = await c.ok(voucherFrom({ ids: [pi], amount: 535, values: { payment_method: 'transfer', bank_account: 'กสิกรไทย 123-4-56789-0', wht_amount: 15 } }), 201);
    expect(v1.doc_no ?? null).toBeNull();
    expect(v1.supplier_id).toBe(supplier);
    const posted = await act('payment_voucher', v1.id, 'post');
    expect(posted.status).toBe('posted');
    expect(posted.doc_no).toMatch(/PV\d{6}-\d{4}$/);
    expect(posted.total_amount).toBe(535);
    expect(posted.net_amount).toBe(520);
    expect(posted.sources_wht_rate).toBe(3);
    const [entry, ...more] = await entriesOf('payment_voucher', v1.id);
    expect(more).toEqual([]);
    expect(entry!.journal).toBe('payments');
    expect(byRole(entry!)).toEqual({ payable: 535, bank: -520, wht_payable: -15 });
    // the payable line names the supplier, for the payable ledger
    expect(entry!.items.find((l: Row) => accounts.get(l.account_id)?.role === 'payable').supplier_id).toBe(supplier);
    expect(await statusOf('purchase_invoice', pi)).toBe('partially_paid');

    // the rest by cheque: the cheque's number, date and account are required
    expectError(await voucherFrom({ ids: [pi], values: { payment_method: 'cheque', wht_amount: 15 } }), 400, 'VALIDATION_FAILED');
    const cheque = await c.ok(voucherFrom({ ids: [pi], values: { payment_method: 'cheque', wht_amount: 15, bank_account: 'กรุงเทพ 987-6-54321-0', payment_ref: '0012345', payment_date: '2026-11-28' } }), 201);
    const v2 = await act('payment_voucher', cheque.id, 'post');
    expect(v2.total_amount).toBe(535);
    expect(byRole((await entriesOf('payment_voucher', v2.id))[0]!)).toEqual({ payable: 535, bank: -520, wht_payable: -15 });
    expect(await statusOf('purchase_invoice', pi)).toBe('paid');

    // a voucher in cash posts to cash
    const pi2 = await approvedInvoice('2');
    const cash = await c.ok(voucherFrom({ ids: [pi2], values: { payment_method: 'cash' } }), 201);
    await act('payment_voucher', cash.id, 'post');
    expect(byRole((await entriesOf('payment_voucher', cash.id))[0]!)).toEqual({ payable: 1070, cash: -1070 });
    expect(await statusOf('purchase_invoice', pi2)).toBe('paid');
  });

  it('refuses paying more than is left open: 400 on the amount, 409 OVER_PROCESSED when posting', async () => {
    const pi = await approvedInvoice('3');
    expectError(await voucherFrom({ ids: [pi], amount: 1070.01, values: { payment_method: 'cash' } }), 400, 'VALIDATION_FAILED');
    // two drafts may each take what is open; the second to post finds it paid already
    const a = await c.ok(voucherFrom({ ids: [pi], amount: 700, values: { payment_method: 'cash' } }), 201);
    const b = await c.ok(voucherFrom({ ids: [pi], amount: 700, values: { payment_method: 'cash' } }), 201);
    await act('payment_voucher', a.id, 'post');
    expectError(await c.action('payment_voucher', b.id, 'post'), 409, 'OVER_PROCESSED');
    expect(await statusOf('payment_voucher', b.id)).toBe('draft');
    expect(await entriesOf('payment_voucher', b.id)).toEqual([]);
    expect(await statusOf('purchase_invoice', pi)).toBe('partially_paid');
  });

  it('cancelling a voucher reverses its entry and the invoice is due again', async () => {
    const pi = await approvedInvoice('4');
    const v1 = await c.ok(voucherFrom({ ids: [pi], amount: 535, values: { payment_method: 'transfer', wht_amount: 15 } }), 201);
    await act('payment_voucher', v1.id, 'post');
    const v2 = await c.ok(voucherFrom({ ids: [pi], values: { payment_method: 'transfer', wht_amount: 15 } }), 201);
    await act('payment_voucher', v2.id, 'post');
    expect(await statusOf('purchase_invoice', pi)).toBe('paid');
    // a paid invoice cannot be cancelled while its vouchers stand: the answer names them
    const refused = await c.action('purchase_invoice', pi, 'cancel');
    expectError(refused, 409, 'HAS_DEPENDENTS');
    expect(refused.json().error.details.dependents.map((d: Row) => d.id).sort()).toEqual([v1.id, v2.id].sort());

    await act('payment_voucher', v2.id, 'cancel');
    const [original, reversal] = await entriesOf('payment_voucher', v2.id);
    expect(byRole(original!)).toEqual({ payable: 535, bank: -520, wht_payable: -15 });
    expect(reversal!.reverses_id).toBe(original!.id);
    expect(byRole(reversal!)).toEqual({ payable: -535, bank: 520, wht_payable: 15 });
    expect(await statusOf('purchase_invoice', pi)).toBe('partially_paid');

    expectError(await c.action('purchase_invoice', pi, 'cancel'), 409, 'HAS_DEPENDENTS');
    await act('payment_voucher', v1.id, 'cancel');
    expect(await statusOf('purchase_invoice', pi)).toBe('approved');
    // what was cancelled is open again: the whole invoice can be paid once more
    const again = await c.ok(voucherFrom({ ids: [pi], values: { payment_method: 'cash' } }), 201);
    expect(again.total_amount).toBe(1070);
  });

  it('makes the 50 ทวิ from the voucher: supplier, date and amount paid come from it, and the tax is not posted twice', async () => {
    const pi = await approvedInvoice('5');
    const v = await act('payment_voucher', (await c.ok(voucherFrom({ ids: [pi], values: { payment_method: 'transfer', wht_amount: 30 } }), 201)).id, 'post');
    const w = await c.ok(c.call('POST', '/api/withholding_tax', c.admin, {
      your_company_id: company, payment_voucher_id: v.id, payee_type: 'supplier', income_type: '40_8', income_description: 'ค่าบริการซ่อมเครื่องจักร', pnd_form: 'pnd53', wht_rate: '3',
    }), 201);
    expect(w).toMatchObject({ supplier_id: supplier, amount_paid: 1000, paid_date: v.doc_date, tax_amount: 30 });
    await act('withholding_tax', w.id, 'issue');
    // the voucher credited wht_payable already: the certificate that names it writes no entry of its own
    expect(await entriesOf('withholding_tax', w.id)).toEqual([]);
    expect(byRole((await entriesOf('payment_voucher', v.id))[0]!)).toEqual({ payable: 1070, bank: -1040, wht_payable: -30 });
  });

  it('one live 50 ทวิ per voucher (409 otherwise), stating the tax the voucher withheld (400 in Thai otherwise): payee tax id from the supplier', async () => {
    await c.ok(c.call('PATCH', `/api/supplier/${supplier}`, c.admin, { tax_id: '0105558034121' }));
    const pi = await approvedInvoice('6');
    const v = await act('payment_voucher', (await c.ok(voucherFrom({ ids: [pi], values: { payment_method: 'cash', wht_amount: 30 } }), 201)).id, 'post');
    const cert = (extra: Row = {}) => c.call('POST', '/api/withholding_tax', { ...c.admin, 'accept-language': 'th' }, {
      your_company_id: company, payment_voucher_id: v.id, payee_type: 'supplier', income_type: '40_8', pnd_form: 'pnd53', wht_rate: '3', ...extra,
    });
    // 1 % of 1,000.00 is 10.00, not the 30.00 withheld: refused on tax_amount, the message in Thai
    const wrong = await cert({ wht_rate: '1' });
    expectError(wrong, 400, 'VALIDATION_FAILED');
    const field = wrong.json().error.details.fields.find((f: Row) => f.field === 'tax_amount');
    expect(field.code).toBe('wht_voucher_tax');
    expect(JSON.stringify(wrong.json().error)).toContain('ภาษีที่หักต้องเท่ากับ 30.00 บาท');
    const w = await c.ok(cert(), 201);
    expect(w).toMatchObject({ supplier_id: supplier, payee_tax_id: '0105558034121', amount_paid: 1000, paid_date: v.doc_date, tax_amount: 30 });
    // a second certificate for the voucher, draft or issued, is refused; once the first is cancelled one may be made again
    const again = await cert();
    expectError(again, 409, 'CONFLICT');
    expect(again.json().error.details.fields.find((f: Row) => f.field === 'payment_voucher_id').code).toBe('wht_voucher_taken');
    await act('withholding_tax', w.id, 'issue');
    expectError(await cert(), 409, 'CONFLICT');
    // changing the issued one's amount is refused by its lock; a draft's amount is judged too
    await act('withholding_tax', w.id, 'cancel');
    const w2 = await c.ok(cert(), 201);
    expectError(await c.call('PATCH', `/api/withholding_tax/${w2.id}`, c.admin, { amount_paid: 900 }), 400, 'VALIDATION_FAILED');
  });

  it('is in the purchasing menu with its create-from screen, labelled in Thai', async () => {
    const menu = (await c.call('GET', '/api/menu', { ...c.admin, 'accept-language': 'th' })).json().data as { key: string; submenu: { path: string; label: { th: string } }[] }[];
    const group = menu.find((g) => g.key === 'purchasing_stock')!;
    expect(group.submenu.find((s) => s.path === '/payment_voucher')?.label.th).toBe('ใบสำคัญจ่าย');
    expect(group.submenu.find((s) => s.path === '/payment_voucher/purchase_invoice')?.label.th).toBe('ใบสำคัญจ่ายจากใบกำกับภาษีซื้อ');
  });
});
