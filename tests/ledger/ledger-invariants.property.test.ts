/**
 * Issue 50 §5, the books reconcile after any sequence of documents: goods receipts, deliveries, POS sales, stock
 * adjustments, tax invoices, receipts (deposits too, cancelled after their invoice cleared them), credit notes, purchase invoices (from goods receipts, at the
 * receipt's price or another, and typed), payment vouchers and cancellations in random order. After each sequence
 * every entry balances, the `inventory` account of each company equals Σ stock value of its inventories, goods received
 * not invoiced holds what approved receipts booked for the lines not invoiced, no customer's deposits are in debit, the day summaries the ledger reports
 * read equal the posted lines summed, every
 * posted document has one entry while a cancelled one's entry is reversed, and the reports agree with the books
 * (tests/support/books-agree.ts: receivable and payable against the party ledgers, assets = liabilities + equity,
 * the P&L against the trial balance, the month's output and input VAT against the tax reports and the ภ.พ.30).
 * A random seed per run (printed on failure); PROPERTY_SEED=<n> replays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { daySummaryMismatches } from '../support/ledger-fixtures.ts';
import { booksDisagree } from '../support/books-agree.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, any>;
type Op =
  | { k: 'receive'; qty: number; price: number }
  | { k: 'pos'; qty: number }
  | { k: 'adjust'; qty: number; out: boolean }
  | { k: 'sale'; qty: number; price: number; vat: 'exclude' | 'include' | 'none' }
  | { k: 'deposit'; qty: number; price: number; refund: boolean }
  | { k: 'bill'; pick: number; daysBefore: number; repriced: number | null }
  | { k: 'expense'; price: number; daysBefore: number }
  | { k: 'pay'; pick: number; part: boolean; cash: boolean }
  | { k: 'deliver' | 'invoice' | 'receipt' | 'credit' | 'cancel' | 'return' | 'refund'; pick: number };

/** Refusals that are the rules doing their job. */
const EXPECTED = new Set(['OVER_PROCESSED', 'HAS_DEPENDENTS', 'INVALID_TRANSITION', 'ALREADY_TAX_INVOICED', 'INSUFFICIENT_STOCK', 'NOTE_WITHOUT_INVOICE']);
/** The supplier's invoice is dated this many days before we record it (within the claim window of s. 82/3). */
const daysBefore = fc.integer({ min: 0, max: 120 });
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const price = fc.integer({ min: 1, max: 500_000 }).map((s) => s / 100);
const pick = (k: 'deliver' | 'invoice' | 'receipt' | 'credit' | 'cancel' | 'return' | 'refund') => fc.record({ k: fc.constant(k), pick: fc.nat() });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ k: fc.constant('receive' as const), qty: fc.integer({ min: 1, max: 20 }), price }) },
  { weight: 2, arbitrary: pick('deliver') },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pos' as const), qty: fc.integer({ min: 1, max: 3 }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('sale' as const), qty: fc.integer({ min: 1, max: 5 }), price, vat: fc.constantFrom('exclude' as const, 'include' as const, 'none' as const) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('bill' as const), pick: fc.nat(), daysBefore, repriced: fc.option(price, { freq: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('expense' as const), price, daysBefore }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pay' as const), pick: fc.nat(), part: fc.boolean(), cash: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('adjust' as const), qty: fc.integer({ min: 1, max: 4 }), out: fc.boolean() }) },
  { weight: 2, arbitrary: pick('invoice') },
  { weight: 2, arbitrary: pick('receipt') },
  { weight: 1, arbitrary: pick('credit') },
  { weight: 2, arbitrary: pick('cancel') },
  { weight: 1, arbitrary: pick('return') },
  // a sale's receipt cancelled, often after its invoice (a deposit the invoice cleared: the customer owes it again)
  { weight: 1, arbitrary: pick('refund') },
  // a sale without VAT paid before its invoice (a deposit), the invoice clearing it, and the receipt cancelled at once or not
  { weight: 1, arbitrary: fc.record({ k: fc.constant('deposit' as const), qty: fc.integer({ min: 1, max: 5 }), price, refund: fc.boolean() }) },
);

describe.each(testDialects())('ledger invariants on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let shop: Awaited<ReturnType<typeof posShop>>;
  let customer: number;
  let supplier: number;
  let product: number;
  let reason: number;
  let shift: number;
  let key = 0;
  const made: { entity: string; id: number }[] = [];
  const orders: Row[] = [];
  const invoices: Row[] = [];
  const sales: Row[] = [];
  const receipts: Row[] = [];
  /** Receipts of sales orders (deposits before an invoice, or payments of an invoiced sale). */
  const paid: Row[] = [];
  const bills: Row[] = [];
  const today = () => businessToday(businessClock.now(), businessClock.timeZone);
  const daysAgo = (n: number) => new Date(Date.parse(`${today()}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    shop = await posShop(c);
    customer = await c.customer();
    supplier = await c.supplier();
    product = await c.product({ price: 107 });
    reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'สินค้าชำรุด', return_side: 'sales' });
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 0 }), 201)).id as number;
  });
  afterAll(async () => t?.close());

  /** A request whose refusal by a business rule is fine; anything else fails the property. */
  const tryOk = async (p: Promise<{ statusCode: number; body: string; json(): any }>): Promise<Row | null> => {
    const res = await p;
    if (res.statusCode < 300) return res.json().data;
    const code = res.json().error?.code;
    if (!EXPECTED.has(code)) throw new Error(`unexpected ${res.statusCode} ${res.body}`);
    return null;
  };
  const act = (entity: string, id: number, action: string) => tryOk(c.action(entity, id, action));
  const post = async (entity: string, draft: Row | null, action: string) => {
    if (!draft) return null;
    const done = await act(entity, draft.id, action);
    if (done) made.push({ entity, id: draft.id });
    return done;
  };
  const at = <T>(list: T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined);
  const header = () => ({ your_company_id: shop.company, inventory_id: shop.inv });

  async function run(op: Op): Promise<void> {
    switch (op.k) {
      case 'receive': {
        const gr = await post('goods_receipt', await tryOk(c.call('POST', '/api/goods_receipt', c.admin, { ...header(), supplier_id: supplier, items: [{ product_id: product, qty: op.qty, price: op.price }] })), 'approve');
        if (gr) receipts.push(gr);
        return;
      }
      case 'bill': {
        // the supplier's tax invoice for a goods receipt, at the receipt's price or at another one
        const gr = at(receipts, op.pick);
        if (!gr) return;
        const values = { supplier_invoice_no: `INV-${dialect}-${SEED}-${++key}`, supplier_invoice_date: daysAgo(op.daysBefore) };
        const draft = await tryOk(c.call('POST', '/api/purchase_invoice/from/goods_receipt', c.admin, { ids: [gr.id], values }));
        if (draft && op.repriced !== null) {
          const items = (draft.items as Row[]).map((l) => ({ id: l.id, product_id: l.product_id, description: l.description, qty: l.qty, price: op.repriced, source_line_id: l.source_line_id, source_entity: l.source_entity }));
          await c.ok(c.call('PATCH', `/api/purchase_invoice/${draft.id}`, c.admin, { items }));
        }
        const pi = await post('purchase_invoice', draft, 'approve');
        if (pi) bills.push(pi);
        return;
      }
      case 'expense': {
        const pi = await post('purchase_invoice', await tryOk(c.call('POST', '/api/purchase_invoice', c.admin, {
          supplier_id: supplier, your_company_id: shop.company, vat_type: 'exclude', supplier_invoice_no: `EXP-${dialect}-${SEED}-${++key}`, supplier_invoice_date: daysAgo(op.daysBefore),
          items: [{ description: 'ค่าขนส่ง', qty: 1, price: op.price }],
        })), 'approve');
        if (pi) bills.push(pi);
        return;
      }
      case 'pay': {
        const pi = at(bills, op.pick);
        if (!pi) return;
        const res = await c.call('POST', '/api/payment_voucher/from/purchase_invoice', c.admin, { ids: [pi.id], ...(op.part ? { amount: Math.max(0.01, Math.round(pi.total_amount * 50) / 100) } : {}), values: { payment_method: op.cash ? 'cash' : 'transfer' } });
        // more than is left open is refused on the amount (400)
        if (res.statusCode === 400 && res.json().error?.code === 'VALIDATION_FAILED') return;
        return void await post('payment_voucher', await tryOk(Promise.resolve(res)), 'post');
      }
      case 'deliver': {
        const so = at(orders, op.pick);
        if (!so) return;
        return void await post('delivery_order', await tryOk(c.call('POST', '/api/delivery_order/from/sales_order', c.admin, { ids: [so.id], values: { inventory_id: shop.inv } })), 'approve');
      }
      case 'pos': {
        const sale = await tryOk(c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: product, qty: op.qty }], payments: [{ payment_method_id: shop.cash, amount: 107 * op.qty + 50 }] },
          { headers: { ...c.admin, 'idempotency-key': `prop-${dialect}-${SEED}-${++key}` } }));
        if (sale) { made.push({ entity: 'pos_order', id: sale.id }); sales.push(sale); }
        return;
      }
      case 'return': {
        // one unit of a POS sale back (a partial return, or the refund of the rest when it is the last)
        const sale = at(sales, op.pick);
        if (!sale) return;
        const res = await c.call('POST', `/api/pos_order/${sale.id}/return`, c.admin, { items: [{ line_id: sale.items[0].id, qty: 1 }] });
        if (res.statusCode >= 300 && res.json().error?.code !== 'VALIDATION_FAILED') await tryOk(Promise.resolve(res));
        return;
      }
      case 'adjust': {
        // straight to the stock ledger: found stock at a cost, or a loss at the average cost
        await tryOk(c.call('POST', '/api/stock_movement', c.admin, c.stockMovementBody(product, shop.inv, op.out ? { movement_type: 'adjustment', direction: 'out', qty: op.qty, unit_cost: null } : { movement_type: 'adjustment', qty: op.qty, unit_cost: 12.34 })));
        return;
      }
      case 'sale': {
        const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: shop.company, customer_id: customer, vat_type: op.vat, items: [{ product_id: product, qty: op.qty, price: op.price }] }), 201);
        await c.ok(c.action('sales_order', so.id, 'approve'));
        orders.push(so);
        return;
      }
      case 'deposit': {
        const so = await c.ok(c.call('POST', '/api/sales_order', c.admin, { your_company_id: shop.company, customer_id: customer, vat_type: 'none', items: [{ product_id: product, qty: op.qty, price: op.price }] }), 201);
        await c.ok(c.action('sales_order', so.id, 'approve'));
        orders.push(so);
        const rc = await post('receipt', await tryOk(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id], values: { payment_method: 'cash' } })), 'post');
        if (rc) paid.push(rc);
        const iv = await post('tax_invoice', await tryOk(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] })), 'issue');
        if (iv) invoices.push(iv);
        if (rc && op.refund) await act('receipt', rc.id, 'cancel');
        return;
      }
      case 'invoice': {
        const so = at(orders, op.pick);
        if (!so) return;
        const iv = await post('tax_invoice', await tryOk(c.call('POST', '/api/tax_invoice/from/sales_order', c.admin, { ids: [so.id] })), 'issue');
        if (iv) invoices.push(iv);
        return;
      }
      case 'receipt': {
        const so = at(orders, op.pick);
        if (!so) return;
        const rc = await post('receipt', await tryOk(c.call('POST', '/api/receipt/from/sales_order', c.admin, { ids: [so.id], values: { payment_method: op.pick % 2 ? 'cash' : 'transfer' } })), 'post');
        if (rc) paid.push(rc);
        return;
      }
      case 'refund': {
        const rc = at(paid, op.pick);
        if (rc) await act('receipt', rc.id, 'cancel');
        return;
      }
      case 'credit': {
        const iv = at(invoices, op.pick);
        if (!iv) return;
        return void await post('credit_note', await tryOk(c.call('POST', '/api/credit_note/from/tax_invoice', c.admin, { ids: [iv.id], values: { return_reason_id: reason } })), 'issue');
      }
      case 'cancel': {
        const doc = at(made, op.pick);
        if (!doc) return;
        await act(doc.entity, doc.id, doc.entity === 'pos_order' ? 'refund' : 'cancel');
      }
    }
  }

  /** What does not reconcile, as readable lines (empty when the books agree). */
  async function broken(): Promise<string[]> {
    const k = t.db.kysely;
    const out: string[] = [];
    const unbalanced = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id')
      .select(['e.doc_no', sql<number>`sum(l.debit) - sum(l.credit)`.as('diff')]).where('e.status', '=', 'posted').groupBy('e.doc_no')
      .having(sql`sum(l.debit) - sum(l.credit)`, '!=', 0).execute();
    for (const u of unbalanced) out.push(`entry ${u.doc_no} is off by ${u.diff}`);
    const books = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id').innerJoin('account as a', 'a.id', 'l.account_id')
      .select(sql<number>`coalesce(sum(l.debit) - sum(l.credit), 0)`.as('v')).where('e.status', '=', 'posted').where('a.role', '=', 'inventory').where('e.your_company_id', '=', shop.company).executeTakeFirst();
    const stock = await k.selectFrom('stock_balance_total as b').innerJoin('inventory as i', 'i.id', 'b.inventory_id')
      .select(sql<number>`coalesce(sum(b.value), 0)`.as('v')).where('i.your_company_id', '=', shop.company).executeTakeFirst();
    if (Number(books?.v) !== Number(stock?.v)) {
      const moves = await k.selectFrom('stock_movement').select(['doc_entity', 'doc_id', 'direction', 'qty', 'value', 'note']).orderBy('id').execute();
      const bal = await k.selectFrom('stock_balance_total').selectAll().execute();
      out.push(`inventory account ${books?.v} ≠ stock value ${stock?.v} (satang) ${process.env.LEDGER_DEBUG ? JSON.stringify({ moves, bal }) : ''}`);
    }
    // the day summaries the ledger reports read (server/ledger/journal-days.ts) follow every posting and cancel
    out.push(...await daySummaryMismatches(k));
    for (const d of made) {
      const row = await k.selectFrom(d.entity).select('status').where('id', '=', d.id).executeTakeFirstOrThrow();
      const entries = await k.selectFrom('journal_entry').select(['id', 'reverses_id']).where('source_entity', '=', d.entity).where('source_id', '=', d.id).execute();
      const originals = entries.filter((e) => e.reverses_id === null).length;
      const reversals = entries.length - originals;
      const gone = ['cancelled', 'refunded'].includes(String(row.status));
      // a POS sale's partial returns are entries of their own, reversed with the sale when the rest is refunded; a tax
      // invoice gets one more when a deposit it cleared is cancelled (server/ledger/sale-balance.ts unclearDeposits)
      if ((!['pos_order', 'tax_invoice'].includes(d.entity) && originals > 1) || reversals !== (gone ? originals : 0)) out.push(`${d.entity} ${d.id} (${row.status}): ${originals} entries, ${reversals} reversals`);
    }
    // goods received not invoiced holds what the approved receipts booked for the lines no approved purchase invoice took
    // (each bill here takes the whole rest of its receipt, so a line is invoiced whole or not at all)
    const grni = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id').innerJoin('account as a', 'a.id', 'l.account_id')
      .select(sql<number>`coalesce(sum(l.credit) - sum(l.debit), 0)`.as('v')).where('e.status', '=', 'posted').where('a.role', '=', 'goods_received_not_invoiced').where('e.your_company_id', '=', shop.company).executeTakeFirst();
    const open = await k.selectFrom('stock_movement as m').innerJoin('goods_receipt as g', 'g.id', 'm.doc_id')
      .select(sql<number>`coalesce(sum(m.value), 0)`.as('v')).where('m.doc_entity', '=', 'goods_receipt').where('m.direction', '=', 'in')
      .where((eb) => eb.or([eb('m.note', 'is', null), eb('m.note', '!=', 'reversal')])).where('g.status', '=', 'approved').where('g.your_company_id', '=', shop.company)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('purchase_invoice_item as pl').innerJoin('purchase_invoice as p', 'p.id', 'pl.purchase_invoice_id').select('pl.id')
        .whereRef('pl.source_line_id', '=', 'm.doc_line_id').where('pl.source_entity', '=', 'goods_receipt').where('p.status', 'in', ['approved', 'partially_paid', 'paid']))))
      .executeTakeFirst();
    if (Number(grni?.v) !== Number(open?.v)) out.push(`goods received not invoiced ${grni?.v} ≠ what approved receipts booked for lines not invoiced ${open?.v} (satang)`);
    // a customer's deposits are never in debit: what an invoice cleared of a deposit cancelled since is owed again
    const deposits = await k.selectFrom('journal_entry_item as l').innerJoin('journal_entry as e', 'e.id', 'l.journal_entry_id').innerJoin('account as a', 'a.id', 'l.account_id')
      .select(['l.customer_id', sql<number>`sum(l.credit) - sum(l.debit)`.as('v')]).where('e.status', '=', 'posted').where('a.role', '=', 'customer_deposits').where('e.your_company_id', '=', shop.company)
      .groupBy('l.customer_id').execute();
    for (const d of deposits) if (Number(d.v) < 0) out.push(`customer_deposits of customer ${d.customer_id} in debit by ${-Number(d.v)}`);
    out.push(...await booksDisagree(c, shop.company, today()));
    return out;
  }

  it('hold after random sequences of stock, sales and POS documents and cancellations', async () => {
    let last: unknown = null;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 12 }), async (ops) => {
          try {
            for (const op of ops) await run(op);
            { const b = (await broken()).join("; "); if (b) throw new Error(`${b} after ${JSON.stringify(ops)}`); }
          } catch (err) {
            last = err;
            throw err;
          }
        }),
        // the state is shared between runs, so shrinking would replay on top of it: keep the first counterexample
        { numRuns: 8, endOnFailure: true, seed: SEED },
      );
    } catch (err) {
      throw new Error(`ledger invariants failed with PROPERTY_SEED=${SEED}: ${(err as Error).message}\n${(last as Error | null)?.message ?? ''}`);
    }
    expect(made.length, `documents posted (seed ${SEED})`).toBeGreaterThan(0);
  }, 300_000);
});
