/**
 * Issue 31 §11, the invariants of the amounts, over random sequences (a seeded generator, so a
 * failure replays): orders with random prices, line and document discounts, VAT types and WHT are
 * billed in random parts, bills are paid by random receipts with and without tax withheld, and
 * receipts are cancelled. After every step:
 * - no order line and no bill line is processed beyond what it holds;
 * - what an order's lines hold adds up to its total, so a fully billed order's bills total it exactly;
 * - a bill is `paid` exactly when what its posted receipts received plus the tax withheld covers it,
 *   `partially_paid` when something but not all, `issued` when nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

/** mulberry32: small, seeded, good enough to pick steps. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { int, pick: <T>(xs: T[]): T => xs[int(0, xs.length - 1)]!, chance: (p: number) => next() < p };
}

const satang = (baht: number) => Math.round(baht * 100);

describe.each(testDialects())('amount invariants over random sequences on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let products: number[];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    products = [await c.product(), await c.product(), await c.product()];
  });
  afterAll(async () => t?.close());

  const call = async (method: string, url: string, body?: unknown) => {
    const res = await c.call(method as never, url, c.admin, body as never);
    return { status: res.statusCode, body: res.json() as Row };
  };
  const ok = async (method: string, url: string, body?: unknown): Promise<any> => {
    const r = await call(method, url, body);
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    return r.body.data;
  };

  it.each([1, 2, 3, 4, 5, 6])('seed %i', async (seed) => {
    const rnd = random(seed);
    const customer = await c.customer();
    const lines = Array.from({ length: rnd.int(1, 3) }, (_, i) => {
      const line: Row = { product_id: products[i], qty: rnd.int(1, 40) / (rnd.chance(0.3) ? 4 : 1), price: rnd.int(1, 99999) / 100 };
      const gross = satang(line.qty * line.price);
      if (rnd.chance(0.3)) line.discount_percent = rnd.int(1, 2000) / 100;
      else if (rnd.chance(0.3) && gross > 1) line.discount_amount = rnd.int(1, gross - 1) / 100;
      return line;
    });
    const doc: Row = { your_company_id: company, customer_id: customer, vat_type: ['exclude', 'exclude', 'include', 'none'][seed % 4], items: lines };
    if (rnd.chance(0.5)) doc.discount_percent = rnd.int(1, 1500) / 100;
    if (rnd.chance(0.4)) doc.wht_rate = 3;
    const so = await ok('POST', '/api/sales_order', doc);
    await ok('POST', `/api/sales_order/${so.id}/actions/approve`);
    const bills: Row[] = [];
    const receipts: { id: number; bill: number; settles: number; status: string }[] = [];

    const check = async (step: string) => {
      const open = await ok('GET', `/api/billing_note/from/sales_order?ids=${so.id}`);
      expect(open.reduce((s: number, l: Row) => s + satang(l.ordered), 0), `${step}: the lines hold the order's total`).toBe(satang(so.total_amount));
      for (const l of open) expect(l.done, `${step}: order line ${l.source_line_id}`).toBeLessThanOrEqual(l.ordered);
      const issued = [];
      for (const b of bills) {
        const bill = await ok('GET', `/api/billing_note/${b.id}`);
        if (bill.status === 'draft' || bill.status === 'cancelled') continue;
        issued.push(bill);
        const got = await ok('GET', `/api/receipt/from/billing_note?ids=${b.id}`);
        for (const l of got) expect(l.done, `${step}: bill line ${l.source_line_id}`).toBeLessThanOrEqual(l.ordered);
        let covered = 0;
        for (const r of receipts.filter((x) => x.bill === b.id && x.status === 'posted')) {
          const rec = await ok('GET', `/api/receipt/${r.id}`);
          covered += satang(rec.net_amount) + satang(rec.wht_amount);
        }
        const want = covered >= satang(bill.total_amount) ? 'paid' : covered > 0 ? 'partially_paid' : 'issued';
        expect(bill.status, `${step}: bill ${bill.bill_no} of ${bill.total_amount} covered by ${covered / 100}`).toBe(want);
      }
      if (open.every((l: Row) => l.remaining === 0)) {
        expect(issued.reduce((s, b) => s + satang(b.total_amount), 0), `${step}: a fully billed order's bills total it`).toBe(satang(so.total_amount));
      }
    };

    for (let step = 0; step < 10; step++) {
      const kind = rnd.int(0, 9);
      const open = await ok('GET', `/api/billing_note/from/sales_order?ids=${so.id}`);
      const left = open.filter((l: Row) => l.remaining > 0);
      if (kind < 4 && left.length) {
        // bill part of a line, or everything that is left
        const body: Row = { ids: [so.id] };
        if (rnd.chance(0.6)) {
          const l: Row = rnd.pick(left);
          body.lines = [{ source_line_id: l.source_line_id, amount: rnd.int(1, satang(l.remaining)) / 100 }];
        }
        const bn = await ok('POST', '/api/billing_note/from/sales_order', body);
        bills.push(await ok('POST', `/api/billing_note/${bn.id}/actions/issue`));
      } else if (kind < 8) {
        const payable = [];
        for (const b of bills) {
          const got = await ok('GET', `/api/receipt/from/billing_note?ids=${b.id}`);
          if (got.some((l: Row) => l.remaining > 0)) payable.push({ b, got });
        }
        if (!payable.length) continue;
        const { b, got } = rnd.pick(payable);
        const body: Row = { ids: [b.id] };
        if (rnd.chance(0.5)) {
          const l: Row = rnd.pick(got.filter((x: Row) => x.remaining > 0));
          body.lines = [{ source_line_id: l.source_line_id, amount: rnd.int(1, satang(l.remaining)) / 100 }];
        }
        const r = await ok('POST', '/api/receipt/from/billing_note', body);
        // tax withheld is at most 15 % of what the receipt settles before VAT (issue 44 §6)
        if (rnd.chance(0.4)) await ok('PATCH', `/api/receipt/${r.id}`, { wht_amount: rnd.int(0, Math.min(Math.floor((satang(r.amount_before_vat) * 15) / 100), 100000)) / 100, wht_certificate_no: `WT${seed}-${step}` });
        await ok('POST', `/api/receipt/${r.id}/actions/post`);
        receipts.push({ id: r.id, bill: b.id, settles: satang(r.total_amount), status: 'posted' });
      } else {
        const posted = receipts.filter((r) => r.status === 'posted');
        if (!posted.length) continue;
        const r = rnd.pick(posted);
        await ok('POST', `/api/receipt/${r.id}/actions/cancel`);
        r.status = 'cancelled';
      }
      await check(`seed ${seed} step ${step}`);
    }
    // finally bill and receive everything that is left: the order is billed, and every bill paid, to the satang
    if ((await ok('GET', `/api/billing_note/from/sales_order?ids=${so.id}`)).some((l: Row) => l.remaining > 0)) {
      const bn = await ok('POST', '/api/billing_note/from/sales_order', { ids: [so.id] });
      bills.push(await ok('POST', `/api/billing_note/${bn.id}/actions/issue`));
    }
    for (const b of bills) {
      if ((await ok('GET', `/api/receipt/from/billing_note?ids=${b.id}`)).some((l: Row) => l.remaining > 0)) {
        const r = await ok('POST', '/api/receipt/from/billing_note', { ids: [b.id] });
        await ok('POST', `/api/receipt/${r.id}/actions/post`);
        receipts.push({ id: r.id, bill: b.id, settles: satang(r.total_amount), status: 'posted' });
      }
    }
    await check(`seed ${seed} at the end`);
    for (const b of bills) expect((await ok('GET', `/api/billing_note/${b.id}`)).status).toBe('paid');
  });

  // quotation → sales order → tax invoices in random parts by quantity: the discounts are carried exactly, so
  // the invoices' amounts after discounts add up to the order's; with VAT included (or none) so do their totals
  it.each([1, 2, 3, 4, 5, 6])('invoicing in parts, seed %i', async (seed) => {
    const rnd = random(1000 + seed);
    const customer = await c.customer();
    const items = Array.from({ length: rnd.int(1, 3) }, (_, i) => {
      const line: Row = { product_id: products[i], qty: rnd.int(1, 12), price: rnd.int(1, 99999) / 100 };
      if (rnd.chance(0.4)) line.discount_percent = rnd.int(1, 2000) / 100;
      else if (rnd.chance(0.4)) line.discount_amount = rnd.int(1, Math.max(1, satang(line.qty * line.price) - 1)) / 100;
      return line;
    });
    const vat = ['exclude', 'include', 'none'][seed % 3]!;
    const head: Row = { your_company_id: company, customer_id: customer, vat_type: vat, items, ...(rnd.chance(0.5) ? { discount_percent: rnd.int(1, 1500) / 100 } : {}) };
    if (!head.discount_percent && rnd.chance(0.6)) head.discount_amount = rnd.int(1, 5000) / 100;
    if (rnd.chance(0.5)) head.wht_rate = 3;
    const q = await ok('POST', '/api/quotation', head);
    await ok('POST', `/api/quotation/${q.id}/actions/approve`);
    const so = await ok('POST', '/api/sales_order/from/quotation', { ids: [q.id] });
    expect({ total: so.total_amount, wht: so.wht_amount }).toEqual({ total: q.total_amount, wht: q.wht_amount });
    await ok('POST', `/api/sales_order/${so.id}/actions/approve`);
    const invoices: Row[] = [];
    for (let guard = 0; guard < 20; guard++) {
      const open = (await ok('GET', `/api/tax_invoice/from/sales_order?ids=${so.id}`)).filter((l: Row) => l.remaining > 0);
      if (!open.length) break;
      const lines = open.filter(() => rnd.chance(0.7)).map((l: Row) => ({ source_line_id: l.source_line_id, qty: rnd.int(1, l.remaining) }));
      const iv = await ok('POST', '/api/tax_invoice/from/sales_order', { ids: [so.id], ...(lines.length && guard < 6 ? { lines } : {}) });
      invoices.push(await ok('POST', `/api/tax_invoice/${iv.id}/actions/issue`));
    }
    expect((await ok('GET', `/api/sales_order/${so.id}`)).billing_status).toBe('billed');
    const sum = (f: string) => invoices.reduce((a, iv) => a + satang(iv[f]), 0);
    const afterDiscounts = (d: Row) => satang(d.subtotal) - satang(d.discount_amount);
    expect(invoices.reduce((a, iv) => a + afterDiscounts(iv), 0), `seed ${seed}: ${invoices.length} invoices`).toBe(afterDiscounts(so));
    expect(sum('discount_amount')).toBe(satang(so.discount_amount));
    if (vat !== 'exclude') expect(sum('total_amount')).toBe(satang(so.total_amount));
    else expect(Math.abs(sum('total_amount') - satang(so.total_amount))).toBeLessThanOrEqual(invoices.length);
  });
});
