/**
 * Issue 44 §11: random sequences of orders (fractional quantities, VAT excluded or included), tax invoices, billing
 * notes, receipts (from orders and from bills), credit and debit notes, POS sales and cancellations, on both
 * dialects, with the tax invariants checked after every sequence:
 * - a tax document's VAT is rate × base, half-up (VAT excluded and quantity-priced: exactly; VAT included or by amount,
 *   where base + VAT must equal a given total, base + VAT = total and VAT within the satang the split allows);
 * - one tax invoice per supply: no order has both an issued tax invoice and a receipt that serves as one;
 * - each month's sales_tax_report of each company is Σ of its tax documents (base and VAT, to the satang).
 * A random seed per run (printed on failure); PROPERTY_SEED=<n> replays one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { thaiTaxId } from '../support/security-fixtures.ts';
import { businessToday } from '../../engine/documents/business-time.ts';

type Row = Record<string, any>;
type Op =
  | { k: 'order'; lines: { qty: number; price: number }[]; vat: 'exclude' | 'include' }
  | { k: 'invoice' | 'bill' | 'receiptOrder' | 'receiptBill' | 'credit' | 'debit' | 'cancel'; pick: number; frac: number }
  | { k: 'pos'; qty: number; full: boolean };

const money = fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 100, max: 200_000 })).map((s) => s / 100);
const pickOp = (k: Exclude<Op['k'], 'order' | 'pos'>) => fc.record({ k: fc.constant(k), pick: fc.nat(), frac: fc.constantFrom(1, 1, 0.5, 0.3) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ k: fc.constant('order' as const), lines: fc.array(fc.record({ qty: fc.integer({ min: 1, max: 20 }).map((q) => q / 4), price: money }), { minLength: 1, maxLength: 3 }), vat: fc.constantFrom('exclude' as const, 'include' as const) }) },
  { weight: 3, arbitrary: pickOp('invoice') },
  { weight: 2, arbitrary: pickOp('bill') },
  { weight: 2, arbitrary: pickOp('receiptOrder') },
  { weight: 2, arbitrary: pickOp('receiptBill') },
  { weight: 2, arbitrary: pickOp('credit') },
  { weight: 1, arbitrary: pickOp('debit') },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('pos' as const), qty: fc.integer({ min: 1, max: 3 }), full: fc.boolean() }) },
  { weight: 1, arbitrary: pickOp('cancel') },
);
/** Refusals that are the rules doing their job. */
const EXPECTED = new Set(['OVER_PROCESSED', 'HAS_DEPENDENTS', 'INVALID_TRANSITION', 'ALREADY_TAX_INVOICED', 'INSUFFICIENT_STOCK']);
const SEED = process.env.PROPERTY_SEED ? Number(process.env.PROPERTY_SEED) : Math.floor(Math.random() * 2 ** 31);
const half = (x: number) => Math.floor(x + 0.5);
const n = (v: unknown) => Number(v ?? 0);

describe.each(testDialects())('tax invariants on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let company: number;
  let customer: number;
  let reason: number;
  let products: number[];
  let shift: number;
  let cash: number;
  let posProduct: number;
  const made = new Map<string, number[]>();
  let sales = 0;
  const today = businessToday(new Date());

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    company = await c.company();
    customer = await c.customer();
    reason = await c.make('return_reason', { code: 'DMG', name_th: 'สินค้าชำรุด', return_side: 'sales' });
    products = [await c.product(), await c.product()];
    const shop = await posShop(c);
    cash = shop.cash;
    posProduct = await c.product({ price: 53.5 });
    await c.receive(shop.inv, [{ product_id: posProduct, qty: 500, price: 20 }]);
    shift = (await c.ok(c.call('POST', '/api/pos_shift', c.admin, { pos_id: shop.pos, opening_cash: 0 }), 201)).id;
  }, 120_000);
  afterAll(async () => t?.close());

  const remember = (entity: string, id: number) => made.set(entity, [...(made.get(entity) ?? []), id]);
  async function call(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Row | null> {
    const res = await c.call(method, url, c.admin, body);
    if (res.statusCode < 300) return res.json().data;
    if (res.statusCode < 500 && EXPECTED.has(res.json().error?.code)) return null;
    throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  }
  async function pick(entity: string, states: string[], p: number): Promise<Row | undefined> {
    const ids = made.get(entity) ?? [];
    for (let i = 0; i < ids.length; i++) {
      const doc = await call('GET', `/api/${entity}/${ids[(p + i) % ids.length]}`);
      if (doc && states.includes(doc.status)) return doc;
    }
    return undefined;
  }
  /** Create `target` from `source` taking `frac` of what is left on each open line, then post it. */
  async function from(target: string, source: Row & { entity: string }, frac: number, values: Row = {}): Promise<void> {
    const open = ((await call('GET', `/api/${target}/from/${source.entity}?ids=${source.id}`)) ?? []) as unknown as Row[];
    const lines = open.filter((l) => l.remaining > 0).map((l) => {
      const scale = l.measure === 'qty' ? 10_000 : 100;
      return { source_line_id: l.source_line_id, [l.measure]: frac === 1 ? l.remaining : Math.max(1 / scale, Math.floor(l.remaining * frac * scale) / scale) };
    });
    if (!lines.length) return;
    const doc = await call('POST', `/api/${target}/from/${source.entity}`, { ids: [source.id], lines, values });
    if (!doc) return;
    remember(target, doc.id);
    await call('POST', `/api/${target}/${doc.id}/actions/${t.registry.get(target)!.document?.postAction ?? 'approve'}`);
  }

  async function run(op: Op): Promise<void> {
    if (op.k === 'order') {
      const so = await call('POST', '/api/sales_order', { your_company_id: company, customer_id: customer, vat_type: op.vat, items: op.lines.map((l, i) => ({ product_id: products[i % 2], ...l })) });
      remember('sales_order', so!.id);
      await call('POST', `/api/sales_order/${so!.id}/actions/approve`);
      return;
    }
    if (op.k === 'pos') {
      const buyer = op.full ? { invoice_type: 'full', buyer_name: 'บริษัท ผู้ซื้อ จำกัด', buyer_tax_id: thaiTaxId(105558001), buyer_branch_code: '00000' } : {};
      const res = await c.call('POST', '/api/pos_order', c.admin, { pos_shift_id: shift, items: [{ product_id: posProduct, qty: op.qty }], payments: [{ payment_method_id: cash, amount: 53.5 * op.qty }], ...buyer },
        { headers: { ...c.admin, 'idempotency-key': `tax-inv-${dialect}-${SEED}-${++sales}` } });
      expect(res.statusCode, res.body).toBe(201);
      return;
    }
    const orderStates = ['approved', 'in_progress', 'completed'];
    const src = async (entity: string, states: string[]) => {
      const d = await pick(entity, states, op.pick);
      return d && { ...d, entity };
    };
    switch (op.k) {
      case 'invoice': { const s = await src('sales_order', ['approved', 'in_progress']); if (s) await from('tax_invoice', s, op.frac); return; }
      case 'bill': { const s = await src('sales_order', orderStates); if (s) await from('billing_note', s, 1); return; }
      case 'receiptOrder': { const s = await src('sales_order', orderStates); if (s) await from('receipt', s, op.frac, { payment_method: 'cash' }); return; }
      case 'receiptBill': { const s = await src('billing_note', ['issued', 'partially_paid']); if (s) await from('receipt', s, op.frac, { payment_method: 'cash' }); return; }
      case 'credit': { const s = await src('tax_invoice', ['issued']); if (s) await from('credit_note', s, op.frac, { return_reason_id: reason }); return; }
      case 'debit': { const s = await src('tax_invoice', ['issued']); if (s) await from('debit_note', s, 0.3, { return_reason_id: reason }); return; }
      case 'cancel': {
        const all = [...made.entries()].flatMap(([e, ids]) => ids.map((id) => [e, id] as const));
        if (!all.length) return;
        const [entity, id] = all[op.pick % all.length]!;
        const doc = await call('GET', `/api/${entity}/${id}`);
        if (doc && !['draft', 'cancelled'].includes(doc.status)) await call('POST', `/api/${entity}/${id}/actions/cancel`);
      }
    }
  }

  /** Every live tax document of the month as [company, base, VAT] in satang, read from the tables. */
  async function taxDocuments(k: Kysely<any>, month: string): Promise<{ company: number; base: number; vat: number; what: string }[]> {
    const [y, m] = month.split('-').map(Number);
    const lastDay = new Date(Date.UTC(y!, m!, 0)).toISOString().slice(0, 10);
    const inMonth = (q: any) => q.where('doc_date', '>=', `${month}-01`).where('doc_date', '<=', lastDay);
    const out: { company: number; base: number; vat: number; what: string }[] = [];
    for (const r of await inMonth(k.selectFrom('tax_invoice').selectAll().where('status', '=', 'issued')).execute()) out.push({ company: n(r.your_company_id), base: n(r.amount_before_vat), vat: n(r.vat_amount), what: `tax_invoice ${r.id}` });
    for (const r of await inMonth(k.selectFrom('receipt').selectAll().where('status', '=', 'posted').where('tax_invoice_role', 'in', ['full', 'abbreviated'])).execute()) out.push({ company: n(r.your_company_id), base: n(r.amount_before_vat), vat: n(r.vat_amount), what: `receipt ${r.id}` });
    for (const r of await inMonth(k.selectFrom('credit_note').selectAll().where('status', '=', 'issued')).execute()) out.push({ company: n(r.your_company_id), base: -n(r.amount_before_vat), vat: -n(r.vat_amount), what: `credit_note ${r.id}` });
    for (const r of await inMonth(k.selectFrom('debit_note').selectAll().where('status', '=', 'issued')).execute()) out.push({ company: n(r.your_company_id), base: n(r.amount_before_vat), vat: n(r.vat_amount), what: `debit_note ${r.id}` });
    for (const r of await inMonth(k.selectFrom('pos_order').selectAll().where('status', '=', 'paid')).execute()) {
      out.push({ company: n(r.your_company_id), base: n(r.amount_before_vat) - n(r.returned_amount) + n(r.returned_vat), vat: n(r.vat_amount) - n(r.returned_vat), what: `pos_order ${r.id}` });
    }
    return out;
  }

  async function broken(): Promise<string[]> {
    const k = t.db.kysely;
    const out: string[] = [];
    // VAT = rate × base, half-up (money and rates are stored as scaled integers: satang, and the rate × 100)
    for (const entity of ['tax_invoice', 'debit_note', 'credit_note', 'receipt', 'pos_order']) {
      const posted = entity === 'receipt' ? 'posted' : entity === 'pos_order' ? 'paid' : 'issued';
      for (const r of await k.selectFrom(entity).selectAll().where('status', '=', posted).execute()) {
        if (entity === 'receipt' && !['full', 'abbreviated'].includes(String(r.tax_invoice_role))) continue;
        const base = n(r.amount_before_vat);
        const vat = n(r.vat_amount);
        const want = half((base * n(r.vat_rate)) / 10_000);
        const exact = r.vat_type === 'exclude' && ['tax_invoice', 'debit_note'].includes(entity);
        if (exact ? vat !== want : Math.abs(vat - want) > 1) out.push(`${entity} ${r.id}: VAT ${vat} on base ${base} at ${n(r.vat_rate) / 100} %, not ${want} satang`);
        if (r.vat_type !== 'exclude' && base + vat !== n(r.total_amount)) out.push(`${entity} ${r.id}: base + VAT is not its total`);
      }
    }
    // one tax invoice per supply: an order with an issued tax invoice has no receipt (straight or through a bill) that is one
    const links = await k.selectFrom('document_link').selectAll().execute();
    const parentOf = new Map<string, number>();
    for (const [entity, lines, parent] of [['sales_order', 'sales_order_item', 'sales_order_id'], ['billing_note', 'billing_note_item', 'billing_note_id'], ['receipt', 'receipt_item', 'receipt_id'], ['tax_invoice', 'tax_invoice_item', 'tax_invoice_id']] as const) {
      for (const l of await k.selectFrom(lines).select(['id', parent]).execute()) parentOf.set(`${entity}:${l.id}`, n(l[parent]));
    }
    const ordersOf = (entity: string, id: number): Set<number> => {
      const mine = links.filter((l) => l.target_entity === entity && parentOf.get(`${entity}:${l.target_line_id}`) === id);
      const out = new Set<number>();
      for (const l of mine) {
        const srcParent = parentOf.get(`${l.source_entity}:${l.source_line_id}`)!;
        if (l.source_entity === 'sales_order') out.add(srcParent);
        else ordersOf(String(l.source_entity), srcParent).forEach((o) => out.add(o));
      }
      return out;
    };
    const invoiced = new Set<number>();
    for (const r of await k.selectFrom('tax_invoice').select('id').where('status', '=', 'issued').execute()) ordersOf('tax_invoice', n(r.id)).forEach((o) => invoiced.add(o));
    for (const r of await k.selectFrom('receipt').select(['id', 'tax_invoice_role']).where('status', '=', 'posted').where('tax_invoice_role', 'in', ['full', 'abbreviated']).execute()) {
      for (const o of ordersOf('receipt', n(r.id))) if (invoiced.has(o)) out.push(`sales_order ${o} has a tax invoice and receipt ${r.id} that serves as one`);
    }
    // the month's report per company is Σ of its tax documents
    const month = today.slice(0, 7);
    const docs = await taxDocuments(k, month);
    for (const co of new Set(docs.map((d) => d.company))) {
      const res = await c.call('GET', `/api/report/sales_tax_report?month=${month}&company=${co}&limit=1000`, c.admin);
      expect(res.statusCode, res.body).toBe(200);
      const totals = res.json().data.totals;
      const mine = docs.filter((d) => d.company === co);
      const base = mine.reduce((s, d) => s + d.base, 0);
      const vat = mine.reduce((s, d) => s + d.vat, 0);
      if (Math.round(n(totals.amount_before_vat) * 100) !== base || Math.round(n(totals.vat_amount) * 100) !== vat) {
        out.push(`sales_tax_report ${month} of company ${co}: ${totals.amount_before_vat} / ${totals.vat_amount}, its documents ${base / 100} / ${vat / 100}`);
      }
    }
    return out;
  }

  it('hold after random sequences of orders, invoices, bills, receipts, notes, POS sales and cancellations', async () => {
    let last: unknown = null;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 12 }), async (ops) => {
          try {
            for (const op of ops) await run(op);
            expect(await broken(), `after ${JSON.stringify(ops)}`).toEqual([]);
          } catch (err) {
            last = err;
            throw err;
          }
        }),
        // the state is shared between runs, so shrinking would replay on top of it: keep the first counterexample
        { numRuns: 10, endOnFailure: true, seed: SEED },
      );
    } catch (err) {
      throw new Error(`tax invariants failed with PROPERTY_SEED=${SEED} (replay: PROPERTY_SEED=${SEED} npx vitest run ${import.meta.filename}): ${(err as Error).message}\n${(last as Error | null)?.message ?? ''}`);
    }
    for (const e of ['sales_order', 'tax_invoice', 'receipt']) expect(made.get(e)?.length ?? 0, `${e} (seed ${SEED})`).toBeGreaterThan(0);
  }, 300_000);
});
