/**
 * Issue 50 §2 and §3: every posting document writes the entry its schema's `document.journal` declares
 * (docs/accounting.md), checked by account role; every entry balances; cancelling writes a reversing entry
 * and keeps the original; manual vouchers balance or are refused; closed books refuse entries; automatic
 * entries are never edited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { expectError, thaiTaxId } from '../support/security-fixtures.ts';
import { fillMissingEntries } from '../../server/ledger/ledger-backfill.ts';
import { byRole as rolesOf, entriesOf as readEntries, accountsById } from '../support/ledger-fixtures.ts';

type Row = Record<string, any>;

describe.each(testDialects())('the general ledger on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let inv: number;
  let product: number;
  let supplier: number;
  /** account id → role and code */
  let accounts: Map<number, Row>;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    inv = await c.inventory(company);
    product = await c.product({ price: 100 });
    supplier = await c.supplier();
    accounts = await accountsById(c);
  });
  afterAll(async () => t?.close());

  const act = (entity: string, id: number, action: string) => c.ok(c.action(entity, id, action));
  let shopMade: ReturnType<typeof posShop> | undefined;
  /** posShop's codes are fixed: one shop for the file. */
  const shopOnce = () => (shopMade ??= posShop(c));
  let shiftMade: Promise<number> | undefined;
  /** One open shift on its terminal. */
  const shiftOnce = (pos: number) => (shiftMade ??= c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 0 }), 201).then((r) => r.id as number));
  const from = (target: string, source: string, body: Row) => c.ok(c.call('POST', `/api/${target}/from/${source}`, c.admin, body), 201);

  const entriesOf = (entity: string, id: number) => readEntries(c, entity, id);
  /** An entry by role, balanced, and posted. */
  const byRole = (entry: Row): Record<string, number> => {
    const out = rolesOf(accounts, entry);
    expect(entry.status).toBe('posted');
    return out;
  };
  const onlyEntry = async (entity: string, id: number): Promise<Record<string, number>> => {
    const entries = await entriesOf(entity, id);
    expect(entries, `${entity} ${id}`).toHaveLength(1);
    return byRole(entries[0]!);
  };

  it('a sale chain posts goods receipt, delivery, tax invoice and receipt with WHT by role; the bill posts nothing', async () => {
    const gr = await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 100, price: 60 }]);
    expect(await onlyEntry('goods_receipt', gr.id)).toEqual({ inventory: 6000, goods_received_not_invoiced: -6000 });

    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, inventory_id: inv, vat_type: 'exclude', wht_rate: 3, items: [{ product_id: product, qty: 10, price: 100 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const d = await from('delivery_order', 'sales_order', { ids: [so.id] });
    await c.ok(c.call('PATCH', `/api/delivery_order/${d.id}`, c.admin, { inventory_id: inv }));
    await act('delivery_order', d.id, 'approve');
    // cost of goods sold at the stock ledger's value: 10 × 60
    expect(await onlyEntry('delivery_order', d.id)).toEqual({ cogs: 600, inventory: -600 });

    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    expect(await onlyEntry('tax_invoice', iv.id)).toEqual({ receivable: 1070, sales: -1000, output_vat: -70 });

    const bn = await from('billing_note', 'tax_invoice', { ids: [iv.id] });
    await act('billing_note', bn.id, 'issue');
    expect(await entriesOf('billing_note', bn.id)).toEqual([]);

    const rc = await from('receipt', 'billing_note', { ids: [bn.id], values: { payment_method: 'transfer', wht_amount: 30 } });
    await act('receipt', rc.id, 'post');
    expect(await onlyEntry('receipt', rc.id)).toEqual({ bank: 1040, wht_receivable: 30, receivable: -1070 });
    // the receivable line names the customer, for the receivable ledger
    const [entry] = await entriesOf('receipt', rc.id);
    expect(entry!.items.find((l: Row) => accounts.get(l.account_id)?.role === 'receivable').customer_id).toBe(customer);
  });

  it('a receipt that is itself the tax invoice posts sales and output VAT', async () => {
    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 2, price: 100 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const rc = await from('receipt', 'sales_order', { ids: [so.id], values: { payment_method: 'cash' } });
    const posted = await act('receipt', rc.id, 'post');
    expect(posted.tax_invoice_role).toBe('full');
    expect(await onlyEntry('receipt', rc.id)).toEqual({ cash: 214, sales: -200, output_vat: -14 });
  });

  it('a purchase invoice of goods received clears goods received not invoiced; one typed by hand posts purchases', async () => {
    const gr = await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 5, price: 60 }]);
    const pi = await from('purchase_invoice', 'goods_receipt', { ids: [gr.id], values: { supplier_invoice_no: `SUP-${dialect}-1`, supplier_invoice_date: '2026-11-20' } });
    await act('purchase_invoice', pi.id, 'approve');
    expect(await onlyEntry('purchase_invoice', pi.id)).toEqual({ goods_received_not_invoiced: 300, input_vat: 21, payable: -321 });
    const typed = await c.ok(c.call('POST', '/api/purchase_invoice', c.admin, { supplier_id: supplier, your_company_id: company, vat_type: 'exclude', supplier_invoice_no: `SUP-${dialect}-2`, supplier_invoice_date: '2026-11-20', items: [{ description: 'ค่าบริการขนส่ง', qty: 1, price: 500 }] }), 201);
    await act('purchase_invoice', typed.id, 'approve');
    const e = await onlyEntry('purchase_invoice', typed.id);
    expect(e).toEqual({ purchases: 500, input_vat: 35, payable: -535 });
  });

  it('a purchase invoice priced differently from its goods receipt clears what the receipt booked; the difference goes to cost', async () => {
    // 10 received at 60.00 (600.00 in stock); 4 of them invoiced at 62.50 (250.00), the other 6 at 59.00 (354.00)
    const gr = await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 10, price: 60 }]);
    const priced = async (n: string, qty: number, price: number) => {
      const draft = await from('purchase_invoice', 'goods_receipt', { ids: [gr.id], lines: [{ source_line_id: gr.items[0].id, qty }], values: { supplier_invoice_no: `SUP-${dialect}-P${n}`, supplier_invoice_date: '2026-11-20' } });
      const items = draft.items.map((l: Row) => ({ id: l.id, product_id: l.product_id, qty: l.qty, price, source_line_id: l.source_line_id, source_entity: l.source_entity }));
      await c.ok(c.call('PATCH', `/api/purchase_invoice/${draft.id}`, c.admin, { items }));
      await act('purchase_invoice', draft.id, 'approve');
      return onlyEntry('purchase_invoice', draft.id);
    };
    expect(await priced('1', 4, 62.5)).toEqual({ goods_received_not_invoiced: 240, cogs: 10, input_vat: 17.5, payable: -267.5 });
    expect(await priced('2', 6, 59)).toEqual({ goods_received_not_invoiced: 360, cogs: -6, input_vat: 24.78, payable: -378.78 });
    // what the receipt put in goods received not invoiced is cleared exactly: 600.00 credited, 240.00 + 360.00 debited
  });

  it('a POS sale posts its payments, change, sales, VAT and cost; a refund reverses it', async () => {
    const shop = await shopOnce();
    const tape = await c.product({ price: 107 });
    await c.receive(shop.inv, [{ product_id: tape, qty: 5, price: 50 }], { your_company_id: shop.company });
    const shift = await shiftOnce(shop.pos);
    const sale = await c.ok(c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: tape, qty: 2 }], payments: [{ payment_method_id: shop.cash, amount: 300 }] },
      { headers: { ...c.admin, 'idempotency-key': `ledger-${dialect}-sale-1` } }), 201);
    expect(sale).toMatchObject({ total_amount: 214, change_amount: 86 });
    expect(await onlyEntry('pos_order', sale.id)).toEqual({ cash: 214, sales: -200, output_vat: -14, cogs: 100, inventory: -100 });
    await act('pos_order', sale.id, 'refund');
    const entries = await entriesOf('pos_order', sale.id);
    expect(entries).toHaveLength(2);
    expect(entries[1]!.reverses_id).toBe(entries[0]!.id);
    expect(byRole(entries[1]!)).toEqual({ cash: -214, sales: 200, output_vat: 14, cogs: -100, inventory: 100 });
  });

  it('cancelling a tax invoice writes a reversing entry dated the cancel date; the original stays', async () => {
    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 1, price: 500 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    await act('tax_invoice', iv.id, 'cancel');
    const [original, reversal] = await entriesOf('tax_invoice', iv.id);
    expect(byRole(original!)).toEqual({ receivable: 535, sales: -500, output_vat: -35 });
    expect(byRole(reversal!)).toEqual({ receivable: -535, sales: 500, output_vat: 35 });
    expect(reversal!.reverses_id).toBe(original!.id);
    // an entry written from a document is never edited nor deleted, nor acted on
    expectError(await c.call('PATCH', `/api/journal_entry/${original!.id}`, c.admin, { memo: 'แก้ไข' }), 409, 'JOURNAL_AUTOMATIC');
    expectError(await c.call('PATCH', `/api/journal_entry/${reversal!.id}`, c.admin, { memo: 'แก้ไข' }), 409, 'JOURNAL_AUTOMATIC');
    // posted entries are locked by their workflow state
    expectError(await c.call('DELETE', `/api/journal_entry/${original!.id}`, c.admin), 409, 'DOCUMENT_LOCKED');
    expect(await entriesOf('tax_invoice', iv.id)).toHaveLength(2);
  });

  it('a manual voucher is a draft until posted, and posts only when its debits equal its credits', async () => {
    const role = (r: string) => [...accounts.values()].find((a) => a.role === r)!.id as number;
    const heading = [...accounts.values()].find((a) => a.is_group)!.id as number;
    const draft = await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: '2026-11-20', your_company_id: company, memo: 'ค่าเช่า', items: [
      { account_id: role('purchases'), debit: 1000 }, { account_id: role('cash'), credit: 999.99 },
    ] }), 201);
    expect(draft.status).toBe('draft');
    const res = await c.call('POST', `/api/journal_entry/${draft.id}/actions/post`, { ...c.admin, 'accept-language': 'th' });
    expectError(res, 400, 'JOURNAL_UNBALANCED');
    expect(res.json().error.details).toMatchObject({ debit: '1000.00', credit: '999.99', difference: '0.01' });
    expect(res.json().error.message).toContain('0.01');
    await c.ok(c.call('PATCH', `/api/journal_entry/${draft.id}`, c.admin, { items: [{ account_id: role('purchases'), debit: 1000, credit: 5 }, { account_id: role('cash'), credit: 995 }] }));
    expectError(await c.action('journal_entry', draft.id, 'post'), 400, 'JOURNAL_LINE_INVALID');
    // a heading is not offered for a line (its link filter), and not posted to
    expectError(await c.call('PATCH', `/api/journal_entry/${draft.id}`, c.admin, { items: [{ account_id: heading, debit: 1000 }, { account_id: role('cash'), credit: 1000 }] }), 400, 'VALIDATION_FAILED');
    await c.ok(c.call('PATCH', `/api/journal_entry/${draft.id}`, c.admin, { items: [{ account_id: role('purchases'), debit: 1000 }, { account_id: role('cash'), credit: 1000 }] }));
    const posted = await act('journal_entry', draft.id, 'post');
    expect(posted).toMatchObject({ status: 'posted', total_debit: 1000, total_credit: 1000 });
    expect(posted.doc_no).toMatch(/JV/);
    expectError(await c.call('PATCH', `/api/journal_entry/${draft.id}`, c.admin, { memo: 'x' }), 409, 'DOCUMENT_LOCKED');
  });

  it('no entry of a company is dated on or before its closed books: 409 PERIOD_CLOSED', async () => {
    const closed = await c.company();
    await c.ok(c.call('PATCH', `/api/your_company/${closed}`, c.admin, { books_closed_until: '2026-10-31' }));
    const cash = [...accounts.values()].find((a) => a.role === 'cash')!.id;
    const bank = [...accounts.values()].find((a) => a.role === 'bank')!.id;
    const v = await c.ok(c.call('POST', '/api/journal_entry', c.admin, { doc_date: '2026-10-15', your_company_id: closed, items: [{ account_id: cash, debit: 10 }, { account_id: bank, credit: 10 }] }), 201);
    expectError(await c.action('journal_entry', v.id, 'post'), 409, 'PERIOD_CLOSED');
  });

  it('credit and debit notes post against the receivable; a receipt before any invoice is a customer deposit', async () => {
    const customer = await c.customer();
    const reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'ปรับราคา', return_side: 'sales' });
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 4, price: 250 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    const cn = await from('credit_note', 'tax_invoice', { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: 100 }], values: { return_reason_id: reason } });
    const issued = await act('credit_note', cn.id, 'issue');
    // the note's own figures, whatever its VAT mode: returns and VAT debited, the receivable credited by its total
    expect(issued.amount_before_vat + issued.vat_amount).toBeCloseTo(issued.total_amount, 2);
    expect(issued.vat_amount).toBeGreaterThan(0);
    expect(await onlyEntry('credit_note', cn.id)).toEqual({ sales_returns: issued.amount_before_vat, output_vat: issued.vat_amount, receivable: -issued.total_amount });
    const dn = await from('debit_note', 'tax_invoice', { ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, qty: 1, price: 50 }], values: { return_reason_id: reason } });
    const raised = await act('debit_note', dn.id, 'issue');
    expect(raised.vat_amount).toBeGreaterThan(0);
    expect(await onlyEntry('debit_note', dn.id)).toEqual({ receivable: raised.total_amount, sales: -raised.amount_before_vat, output_vat: -raised.vat_amount });

    // a company that is not VAT registered: its receipt is never a tax invoice, and before an invoice it is a deposit
    const plain = await c.make('your_company', { code: c.next('NV'), name_th: 'ร้านไม่จดภาษี', tax_id: thaiTaxId(1055581234), branch_code: '00000', is_vat_registered: false });
    const so2 = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: plain, customer_id: customer, vat_type: 'none', items: [{ product_id: product, qty: 1, price: 300 }] }), 201);
    await act('sales_order', so2.id, 'approve');
    const rc = await from('receipt', 'sales_order', { ids: [so2.id], values: { payment_method: 'cash' } });
    expect((await act('receipt', rc.id, 'post')).tax_invoice_role).toBe('none');
    expect(await onlyEntry('receipt', rc.id)).toEqual({ cash: 300, customer_deposits: -300 });
  });

  it('a tax invoice clears the deposits its sale\'s receipts took before it against the receivable it raises', async () => {
    const customer = await c.customer();
    // a sale without VAT of 2 × 250.00: 400.00 received before any invoice is a deposit
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'none', items: [{ product_id: product, qty: 2, price: 250 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const rc = await from('receipt', 'sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 400 }], values: { payment_method: 'cash' } });
    await act('receipt', rc.id, 'post');
    expect(await onlyEntry('receipt', rc.id)).toEqual({ cash: 400, customer_deposits: -400 });
    // the invoice of 500.00: 400.00 of the deposit clears the receivable, 100.00 is still owed
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    expect(await onlyEntry('tax_invoice', iv.id)).toEqual({ receivable: 100, customer_deposits: 400, sales: -500 });
    // cancelled, its reversal gives the deposit back; issued again, it clears it again (the deposit is counted once)
    await act('tax_invoice', iv.id, 'cancel');
    const again = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', again.id, 'issue');
    expect(await onlyEntry('tax_invoice', again.id)).toEqual({ receivable: 100, customer_deposits: 400, sales: -500 });
  });

  it('a deposit receipt cancelled after its invoice cleared the deposit gives the receivable back, and the invoice cancelled then leaves nothing', async () => {
    const customer = await c.customer();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: company, customer_id: customer, vat_type: 'none', items: [{ product_id: product, qty: 2, price: 250 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const rc = await from('receipt', 'sales_order', { ids: [so.id], lines: [{ source_line_id: so.items[0].id, amount: 400 }], values: { payment_method: 'cash' } });
    await act('receipt', rc.id, 'post');
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    /** Σ by role of the sale's entries (receipt and invoice), accounts left at zero dropped. */
    const books = async () => {
      const out: Record<string, number> = {};
      for (const e of [...await entriesOf('receipt', rc.id), ...await entriesOf('tax_invoice', iv.id)]) {
        for (const [role, v] of Object.entries(byRole(e))) out[role] = Math.round(((out[role] ?? 0) + v) * 100) / 100;
      }
      return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== 0));
    };
    expect(await books()).toEqual({ cash: 400, receivable: 100, sales: -500 });
    // the money goes back: the customer owes the whole 500.00 again and holds no deposit
    await act('receipt', rc.id, 'cancel');
    const [, reversal] = await entriesOf('receipt', rc.id);
    expect(byRole(reversal!)).toEqual({ cash: -400, customer_deposits: 400 });
    // the invoice's clearing of what is gone is undone by an entry of the invoice, naming the customer
    const [, uncleared] = await entriesOf('tax_invoice', iv.id);
    expect(byRole(uncleared!)).toEqual({ receivable: 400, customer_deposits: -400 });
    expect(uncleared!.reverses_id).toBeNull();
    expect(uncleared!.items.map((l: Row) => l.customer_id)).toEqual([customer, customer]);
    expect(await books()).toEqual({ receivable: 500, sales: -500 });
    // the invoice cancelled after that: nothing left, no deposit given back that was never kept
    await act('tax_invoice', iv.id, 'cancel');
    expect(await books()).toEqual({});
  });

  it('a transfer between warehouses of one company and a production report post nothing (no value leaves the company; a production report moves no stock)', async () => {
    const other = await c.inventory(company);
    await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 4, price: 60 }]);
    const tr = await c.posted('internal_product_transfer', { from_inventory_id: inv, to_inventory_id: other }, [{ product_id: product, qty: 3 }]);
    expect(tr.status).toBe('approved');
    expect(await c.onHand(product, other)).toBe(3);
    expect(await entriesOf('internal_product_transfer', tr.id)).toEqual([]);
    await c.settings({ is_use_production_report: true, is_enable_manufactured_product: true });
    const machine = await c.make('machinery', { code: c.next('M'), name: 'เครื่องสลิต', machine_type: 'slitter', inventory_id: inv });
    const pr = await c.posted('production_report', { your_company_id: company, inventory_id: inv, machinery_id: machine }, [{ product_id: product, qty: 5, price: 4 }]);
    expect(pr.status).toBe('approved');
    expect(await entriesOf('production_report', pr.id)).toEqual([]);
    // its finished goods received into stock are production's, not a supplier's: nothing waits for an invoice
    const gr = await from('goods_receipt', 'production_report', { ids: [pr.id] });
    await c.ok(c.call('PATCH', `/api/goods_receipt/${gr.id}`, c.admin, { inventory_id: inv }));
    await act('goods_receipt', gr.id, 'approve');
    expect(await onlyEntry('goods_receipt', gr.id)).toEqual({ inventory: 20, production_transfer: -20 });
  });

  it('a transfer between warehouses of two companies moves each company\'s books: the sender\'s stock becomes a claim on the receiver, reversed on cancel', async () => {
    const sister = await c.company();
    const theirs = await c.inventory(sister);
    await c.posted('goods_receipt', { inventory_id: inv, your_company_id: company, supplier_id: supplier }, [{ product_id: product, qty: 4, price: 60 }]);
    const tr = await c.posted('internal_product_transfer', { from_inventory_id: inv, to_inventory_id: theirs }, [{ product_id: product, qty: 3 }]);
    const value = await t.db.kysely.selectFrom('stock_movement').select('value').where('doc_entity', '=', 'internal_product_transfer').where('doc_id', '=', tr.id).where('direction', '=', 'out').executeTakeFirstOrThrow();
    const moved = Number(value.value) / 100;
    expect(moved).toBeGreaterThan(0);
    const [sent, received, ...rest] = await entriesOf('internal_product_transfer', tr.id);
    expect(rest).toEqual([]);
    expect([sent!.your_company_id, received!.your_company_id]).toEqual([company, sister]);
    expect(byRole(sent!)).toEqual({ intercompany_receivable: moved, inventory: -moved });
    expect(byRole(received!)).toEqual({ inventory: moved, intercompany_payable: -moved });
    // cancelled: each company's entry reversed in its own books, nothing left on either side
    await act('internal_product_transfer', tr.id, 'cancel');
    const all = await entriesOf('internal_product_transfer', tr.id);
    expect(all).toHaveLength(4);
    for (const who of [company, sister]) {
      const net: Record<string, number> = {};
      for (const e of all.filter((x) => x.your_company_id === who)) for (const [role, v] of Object.entries(byRole(e))) net[role] = Math.round(((net[role] ?? 0) + v) * 100) / 100;
      expect(Object.values(net).every((v) => v === 0), JSON.stringify(net)).toBe(true);
    }
  });

  it('a database from before the ledger gets the entries of its posted documents at start, once', async () => {
    const customer = await c.customer();
    const old = await c.company();
    const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: old, customer_id: customer, vat_type: 'exclude', items: [{ product_id: product, qty: 3, price: 100 }] }), 201);
    await act('sales_order', so.id, 'approve');
    const iv = await from('tax_invoice', 'sales_order', { ids: [so.id] });
    await act('tax_invoice', iv.id, 'issue');
    const before = await entriesOf('tax_invoice', iv.id);
    // as a database from before the ledger: the entry is not there
    const k = t.db.kysely;
    await k.deleteFrom('journal_entry_item').where('journal_entry_id', '=', before[0]!.id).execute();
    await k.deleteFrom('journal_entry').where('id', '=', before[0]!.id).execute();
    expect(await entriesOf('tax_invoice', iv.id)).toEqual([]);
    // its month was closed since: the history is still written (a closed period refuses new postings, not the record of old ones)
    await c.ok(c.call('PATCH', `/api/your_company/${old}`, c.admin, { books_closed_until: iv.doc_date }));
    expect(await fillMissingEntries(t.service)).toBeGreaterThanOrEqual(1);
    const after = await entriesOf('tax_invoice', iv.id);
    expect(after).toHaveLength(1);
    expect(byRole(after[0]!)).toEqual({ receivable: 321, sales: -300, output_vat: -21 });
    expect(after[0]!.doc_date).toBe(iv.doc_date);
    // a second start writes nothing
    expect(await fillMissingEntries(t.service)).toBe(0);
  });

  it('a stock adjustment written straight to the stock ledger moves inventory against stock adjustments', async () => {
    const item = await c.product();
    const found = await c.make('stock_movement', c.stockMovementBody(item, inv, { movement_type: 'adjustment', qty: 4, unit_cost: 25 }));
    expect(await onlyEntry('stock_movement', found)).toEqual({ inventory: 100, stock_adjustment: -100 });
    const lost = await c.make('stock_movement', c.stockMovementBody(item, inv, { movement_type: 'adjustment', direction: 'out', qty: 1, unit_cost: null }));
    // out at the balance's average cost, as the stock ledger stored it
    expect(await onlyEntry('stock_movement', lost)).toEqual({ stock_adjustment: 25, inventory: -25 });
    // from before the ledger: the adjustment's entry is written at start; one in an inventory of no company posts
    // nothing and is not taken up again
    const k = t.db.kysely;
    const entry = (await readEntries(c, 'stock_movement', found))[0]!;
    await k.deleteFrom('journal_entry_item').where('journal_entry_id', '=', entry.id).execute();
    await k.deleteFrom('journal_entry').where('id', '=', entry.id).execute();
    const nowhere = await c.inventory(null);
    const stray = await c.make('stock_movement', c.stockMovementBody(item, nowhere, { movement_type: 'adjustment', qty: 2, unit_cost: 10 }));
    expect(await readEntries(c, 'stock_movement', stray)).toEqual([]);
    expect(await fillMissingEntries(t.service)).toBeGreaterThanOrEqual(1);
    expect(await onlyEntry('stock_movement', found)).toEqual({ inventory: 100, stock_adjustment: -100 });
    expect(await readEntries(c, 'stock_movement', stray)).toEqual([]);
    expect(await fillMissingEntries(t.service)).toBe(0);
  });

  it('a 50 ทวิ of tax withheld from a supplier moves that part of the payable to WHT payable; cancelling reverses it', async () => {
    const w = await c.ok(c.call('POST', '/api/withholding_tax', c.admin, {
      doc_date: '2026-11-20', your_company_id: company, payee_type: 'supplier', supplier_id: supplier,
      income_type: '40_8', income_description: 'ค่าบริการขนส่ง', pnd_form: 'pnd53', wht_rate: '1', amount_paid: 5000,
    }), 201);
    await act('withholding_tax', w.id, 'issue');
    expect(await onlyEntry('withholding_tax', w.id)).toEqual({ payable: 50, wht_payable: -50 });
    await act('withholding_tax', w.id, 'cancel');
    const [, reversal] = await entriesOf('withholding_tax', w.id);
    expect(byRole(reversal!)).toEqual({ payable: -50, wht_payable: 50 });
  });

  it('a partial POS return posts its own entry; the refund of the rest reverses everything', async () => {
    const shop = await shopOnce();
    const roll = await c.product({ price: 107 });
    await c.receive(shop.inv, [{ product_id: roll, qty: 5, price: 40 }], { your_company_id: shop.company });
    const shift = await shiftOnce(shop.pos);
    const sale = await c.ok(c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: roll, qty: 3 }], payments: [{ payment_method_id: shop.cash, amount: 321 }] },
      { headers: { ...c.admin, 'idempotency-key': `ledger-${dialect}-return-1` } }), 201);
    await c.ok(c.call('POST', `/api/pos_order/${sale.id}/return`, c.admin, { items: [{ line_id: sale.items[0].id, qty: 1 }] }));
    const [original, ret] = await entriesOf('pos_order', sale.id);
    expect(byRole(original!)).toEqual({ cash: 321, sales: -300, output_vat: -21, cogs: 120, inventory: -120 });
    // one roll of 107.00 (VAT 7.00) back, its cost 40.00 back in stock
    expect(byRole(ret!)).toEqual({ sales_returns: 100, output_vat: 7, cash: -107, inventory: 40, cogs: -40 });
    await c.ok(c.call('POST', `/api/pos_order/${sale.id}/return`, c.admin, { items: [{ line_id: sale.items[0].id, qty: 2 }] }));
    const all = await entriesOf('pos_order', sale.id);
    const net: Record<string, number> = {};
    for (const e of all) for (const [role, v] of Object.entries(byRole(e))) net[role] = Math.round(((net[role] ?? 0) + v) * 100) / 100;
    expect(Object.values(net).every((v) => v === 0), JSON.stringify(net)).toBe(true);
  });

  it('a chart made before a posting role was added gets that role\'s shipped account at the next start; a chart that gave the code away does not', async () => {
    const transfer = [...accounts.values()].find((a) => a.role === 'production_transfer')!;
    const { ensureChartOfAccounts } = await import('../../server/ledger/chart-seed.ts');
    const roleHolders = async () => ((await c.ok(c.call('GET', `/api/account?limit=500`, c.admin))) as unknown as Row[]).filter((a) => a.role === 'production_transfer');
    // a database whose chart lacks the role, as one from before it was shipped (the account renamed out of the way)
    await t.db.kysely.updateTable('account').set({ role: null, code: `${transfer.code}-old` }).where('id', '=', transfer.id).execute();
    expect(await roleHolders()).toEqual([]);
    expect(await ensureChartOfAccounts(t.service)).toBe(1);
    const added = await roleHolders();
    expect(added).toEqual([expect.objectContaining({ code: transfer.code, role: 'production_transfer', account_type: 'expense', parent_id: transfer.parent_id })]);
    // nothing more the next time
    expect(await ensureChartOfAccounts(t.service)).toBe(0);
    // an administrator who took the role away and kept the code chose so: the start does not add it back
    await t.db.kysely.updateTable('account').set({ role: null }).where('id', '=', added[0]!.id).execute();
    expect(await ensureChartOfAccounts(t.service)).toBe(0);
    expect(await roleHolders()).toEqual([]);
    await t.db.kysely.updateTable('account').set({ role: 'production_transfer' }).where('id', '=', added[0]!.id).execute();
  });

  it('an account with entries cannot be deleted', async () => {
    const sales = [...accounts.values()].find((a) => a.role === 'sales')!.id;
    expectError(await c.call('DELETE', `/api/account/${sales}`, c.admin), 409, 'IN_USE');
  });
});
