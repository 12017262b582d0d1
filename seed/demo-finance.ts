import type { EntityService } from '../server/crud/entity-service.ts';
import { systemContext } from '../server/crud/access-policy.ts';
import { createFrom, openLines } from '../server/documents/create-from.ts';
import { businessClock } from '../engine/documents/business-clock.ts';

type Row = Record<string, any>;

/** The last month of the demo history; the year runs from the month after this one a year earlier. */
export const DEMO_LAST_MONTH = { year: 2026, month: 11 };
const CUSTOMERS = ['C001', 'C002', 'C003', 'C004', 'C005', 'C006'];

const pad = (n: number) => String(n).padStart(2, '0');
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function idOf(service: EntityService, entity: string, code: string): Promise<number> {
  const q = service.parseQuery(service.entity(entity), { filter: JSON.stringify({ code: { _eq: code } }), limit: '1', fields: 'id' }, systemContext);
  const { rows } = await service.list(entity, q, systemContext);
  if (!rows[0]) throw new Error(`demo finance: no ${entity} ${code}`);
  return Number(rows[0].id);
}

/**
 * A year of sales and collection history, made the way a user makes it: each
 * document through the document engine's own calls (create, create-from,
 * actions), on its own day, so numbering, progress and statuses are real.
 * Deterministic: the same documents every time.
 *
 * Per month, two customers each get a quotation, an order for part of it, a
 * billing note, receipts and a tax invoice. Older months are billed and paid in
 * full; the last three months are billed in part and paid in part, so the
 * collection summary has outstanding amounts in every ageing bucket. Orders
 * older than three months are closed once invoiced (their goods went out
 * before the stock ledger's opening balances). Then one credit note, one debit
 * note, four withholding-tax certificates and one counter sale whose receipt is its tax invoice.
 */
export async function seedFinanceHistory(service: EntityService): Promise<Record<string, number>> {
  const ctx = systemContext;
  const counts: Record<string, number> = {};
  const count = (e: string) => { counts[e] = (counts[e] ?? 0) + 1; };
  const realNow = businessClock.now;
  // 10:00 in Bangkok on the document's day: numbering and "$NOW" dates follow it
  const on = (date: string) => { businessClock.now = () => new Date(`${date}T03:00:00Z`); };
  // receipts come weeks after their bill, in later months: they wait here and are posted on their own day, before
  // anything dated later, so every series is issued in date order (a tax document may not be dated before the last one)
  const waiting: { date: string; step: () => Promise<void> }[] = [];
  const later = (date: string, step: () => Promise<void>) => { waiting.push({ date, step }); };
  const until = async (date: string) => {
    waiting.sort((a, b) => a.date.localeCompare(b.date));
    while (waiting.length && waiting[0]!.date <= date) {
      const next = waiting.shift()!;
      on(next.date);
      await next.step();
    }
    on(date);
  };
  const act = async (entity: string, id: number, action: string): Promise<Row> => service.runAction(entity, id, action, {}, ctx);
  try {
    const company = await idOf(service, 'your_company', 'TPT');
    const customers = await Promise.all(CUSTOMERS.map((c) => idOf(service, 'customer', c)));
    const products = await Promise.all(Array.from({ length: 20 }, (_, i) => idOf(service, 'product', `P${String(i + 1).padStart(3, '0')}`)));
    const invoices: Row[] = [];
    for (let m = 0; m < 12; m++) {
      const month = DEMO_LAST_MONTH.month - 11 + m;
      const year = DEMO_LAST_MONTH.year + Math.floor((month - 1) / 12);
      const mm = ((month - 1 + 1200) % 12) + 1;
      const age = 11 - m; // months before the last one
      for (let k = 0; k < 2; k++) {
        const j = m * 2 + k;
        const customer = customers[j % customers.length]!;
        const date = `${year}-${pad(mm)}-${pad(3 + k * 10)}`;
        await until(date);
        const q: Row = await service.create('quotation', {
          doc_date: date, your_company_id: company, customer_id: customer, vat_type: 'exclude', credit_term_days: 30,
          items: [
            { product_id: products[(j * 3) % 20], qty: 10 + (j % 5) * 5, price: 150 + ((j * 37) % 9) * 25 },
            { product_id: products[(j * 3 + 1) % 20], qty: 5, price: 420 + (j % 4) * 30 },
          ],
        }, ctx);
        await act('quotation', Number(q.id), 'approve');
        count('quotation');
        // the order takes the first line whole and 3 of the 5 on the second: the quotation stays partly ordered
        await until(addDays(date, 2));
        const so = await createFrom(service, 'sales_order', 'quotation', { ids: [q.id], lines: [{ source_line_id: q.items[0].id, qty: q.items[0].qty }, { source_line_id: q.items[1].id, qty: 3 }] }, ctx);
        const order = await act('sales_order', Number(so.id), 'approve');
        count('sales_order');
        // billed five days later, whole; in the last three months only the first line
        const billDate = addDays(date, 5);
        await until(billDate);
        // a bill's line is a part of what the order's line holds with its VAT (docs/documents.md, "Carrying discounts")
        const first = age < 3 ? (await openLines(service, 'billing_note', 'sales_order', String(so.id), ctx))[0]! : null;
        const lines = first ? [{ source_line_id: order.items[0].id, amount: first.remaining }] : undefined;
        const bn = await createFrom(service, 'billing_note', 'sales_order', { ids: [so.id], ...(lines ? { lines } : {}) }, ctx);
        await service.update('billing_note', Number(bn.id), { due_date: addDays(billDate, 30) }, ctx, 'patch');
        const bill = await act('billing_note', Number(bn.id), 'issue');
        count('billing_note');
        // paid within the month after the due date: half first, then the rest; recent bills only in part, the newest not yet
        if (age >= 1) later(addDays(billDate, 20), async () => {
          const half = Math.round(Number(bill.items[0].amount) * 50) / 100;
          const r1 = await createFrom(service, 'receipt', 'billing_note', { ids: [bn.id], lines: [{ source_line_id: bill.items[0].id, amount: half }] }, ctx);
          await service.update('receipt', Number(r1.id), { payment_method: 'transfer', bank_name: 'ธนาคารกสิกรไทย', payment_ref: `TR${year}${pad(mm)}${pad(j)}`, payment_date: addDays(billDate, 20) }, ctx, 'patch');
          await act('receipt', Number(r1.id), 'post');
          count('receipt');
        });
        if (age >= 3) later(addDays(billDate, 35), async () => {
          const r2 = await createFrom(service, 'receipt', 'billing_note', { ids: [bn.id] }, ctx);
          await service.update('receipt', Number(r2.id), { payment_method: 'cheque', bank_name: 'ธนาคารกรุงเทพ', payment_ref: `CQ${pad(j)}${pad(mm)}01`, payment_date: addDays(billDate, 35) }, ctx, 'patch');
          await act('receipt', Number(r2.id), 'post');
          count('receipt');
        });
        // a tax invoice for the order, except in the newest month
        if (age >= 1) {
          await until(addDays(date, 6));
          const iv = await createFrom(service, 'tax_invoice', 'sales_order', { ids: [so.id] }, ctx);
          invoices.push(await act('tax_invoice', Number(iv.id), 'issue'));
          count('tax_invoice');
        }
        // invoicing is not delivering: the goods of the older orders left before the stock ledger begins, so
        // those orders are closed (nothing stays booked); the last two months' stay billed but undelivered
        if (age >= 3) await act('sales_order', Number(so.id), 'close');
      }
    }
    // one credit note: a tenth of the first line of an invoice came back damaged
    const iv = invoices[invoices.length - 3]!;
    await until(addDays(String(iv.doc_date), 10));
    const reason = await idOf(service, 'return_reason', 'DAMAGED');
    const cn = await createFrom(service, 'credit_note', 'tax_invoice', {
      ids: [iv.id], lines: [{ source_line_id: iv.items[0].id, amount: Math.round(Number(iv.items[0].amount) * 10.7) / 100 }], values: { return_reason_id: reason, remark: 'สินค้าชำรุดระหว่างขนส่ง' },
    }, ctx);
    await act('credit_note', Number(cn.id), 'issue');
    count('credit_note');
    // one debit note: the customer kept 2 units of the second line that were delivered over the invoice
    await until(addDays(String(iv.doc_date), 12));
    const dn = await createFrom(service, 'debit_note', 'tax_invoice', {
      ids: [iv.id], lines: [{ source_line_id: iv.items[1].id, qty: 2 }], values: { return_reason_id: await idOf(service, 'return_reason', 'OVER-QTY'), remark: 'ลูกค้ารับสินค้าที่ส่งเกินไว้ 2 หน่วย' },
    }, ctx);
    await act('debit_note', Number(dn.id), 'issue');
    count('debit_note');
    // withholding certificates for services bought: transport 1 %, advertising 2 %, services 3 %, rent 5 %
    const certs = [
      { supplier: 'S001', income: '40_8', description: 'ค่าขนส่งสินค้า', rate: 1, paid: 18500 },
      { supplier: 'S002', income: '40_8', description: 'ค่าโฆษณา', rate: 2, paid: 32000 },
      { supplier: 'S003', income: '40_8', description: 'ค่าบริการซ่อมบำรุงเครื่องจักร', rate: 3, paid: 12345.67 },
      { supplier: 'S004', income: '40_5', description: 'ค่าเช่าโกดัง', rate: 5, paid: 45000 },
    ];
    for (const [i, c] of certs.entries()) {
      const date = `${DEMO_LAST_MONTH.year}-${pad(DEMO_LAST_MONTH.month - 3 + i)}-25`;
      await until(date);
      const supplierId = await idOf(service, 'supplier', c.supplier);
      // the certificate names the payee by tax id (50 ทวิ and the ภ.ง.ด. attachment need it); fillFrom takes one link, and a payee may be a supplier or a customer
      const payee = await service.get('supplier', supplierId, systemContext);
      const wt = await service.create('withholding_tax', {
        doc_date: date, your_company_id: company, payee_type: 'supplier', supplier_id: supplierId, payee_tax_id: payee.tax_id ?? null,
        income_type: c.income, income_description: c.description, pnd_form: 'pnd53', wht_rate: String(c.rate), amount_paid: c.paid,
      }, ctx);
      await act('withholding_tax', Number(wt.id), 'issue');
      count('withholding_tax');
    }
    // a counter sale paid on the spot: an order with no tax invoice, its receipt made straight from it serves as the
    // sale's tax invoice (ใบเสร็จรับเงิน/ใบกำกับภาษี, in November's sales tax report: issue 44 §2); closed, as its goods left
    const cashDate = `${DEMO_LAST_MONTH.year}-${pad(DEMO_LAST_MONTH.month)}-20`;
    await until(cashDate);
    const cashOrder = await service.create('sales_order', {
      doc_date: cashDate, your_company_id: company, customer_id: customers[0], vat_type: 'exclude', customer_reference: 'ขายเงินสดหน้าร้าน',
      items: [{ product_id: products[5], qty: 4, price: 250 }],
    }, ctx);
    await act('sales_order', Number(cashOrder.id), 'approve');
    count('sales_order');
    const cashReceipt = await createFrom(service, 'receipt', 'sales_order', { ids: [cashOrder.id] }, ctx);
    await act('receipt', Number(cashReceipt.id), 'post');
    count('receipt');
    await act('sales_order', Number(cashOrder.id), 'close');
    // whatever is still waiting (nothing, as the history is laid out today) is posted on its own day
    while (waiting.length) await until(waiting[waiting.length - 1]!.date);
    return counts;
  } finally {
    businessClock.now = realNow;
  }
}
