/**
 * The demo shop (issue 33 §7): two terminals on two sales channels, a week of closed shifts with sales through
 * the register's own call, and the running promotions applied (10 % off the OPP tape, buy 10 boxes get 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedPosWeek } from '../../seed/demo-pos.ts';

describe.each(testDialects())('demo POS week on %s', (dialect) => {
  let t: TestApp;
  let counts: Record<string, number>;
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>[];
  };

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    counts = await seedPosWeek(t.service);
  }, 180_000);
  afterAll(async () => t?.close());

  it('has a week of closed shifts on two terminals, each balanced against its cash', async () => {
    expect(counts).toEqual({ pos_shift: 14, pos_order: 42 });
    const shifts = await get('/api/pos_shift?limit=100');
    expect(shifts).toHaveLength(14);
    expect(new Set(shifts.map((s) => s.pos_id)).size).toBe(2);
    expect(new Set(shifts.map((s) => String(s.opened_at).slice(0, 10))).size).toBe(7);
    for (const s of shifts) {
      expect(s.status).toBe('closed');
      expect(Math.round(s.expected_cash * 100)).toBe(Math.round((s.opening_cash + s.cash_sales) * 100));
    }
    expect(shifts.filter((s) => s.difference !== 0).map((s) => s.difference)).toEqual([-20]);
  });

  it('sells across two channels with the running promotions', async () => {
    const orders = await get('/api/pos_order?limit=100');
    expect(orders).toHaveLength(42);
    expect(new Set(orders.map((o) => o.sales_channel_id)).size).toBe(2);
    expect(orders.every((o) => o.status === 'paid')).toBe(true);
    const lines = (await Promise.all(orders.map(async (o) => (await t.app.inject({ method: 'GET', url: `/api/pos_order/${o.id}`, headers: t.headers })).json().data.items))).flat();
    // 2 packs of tape at 135.00 less 10 % = 27.00; 22 boxes at 21.00, buy 10 get 1: 2 free = 42.00
    expect(lines.some((l: any) => l.qty === 2 && l.price === 135 && l.discount_amount === 27)).toBe(true);
    expect(lines.some((l: any) => l.qty === 22 && l.price === 21 && l.discount_amount === 42)).toBe(true);
  });

  it('puts every paid sale\'s VAT in the sales tax report of its month and company (issue 44 §8)', async () => {
    const orders = await get('/api/pos_order?limit=100&fields=doc_date,your_company_id,vat_amount,status');
    const byMonth = new Map<string, number>();
    for (const o of orders) {
      const key = `${String(o.doc_date).slice(0, 7)}/${o.your_company_id}`;
      byMonth.set(key, (byMonth.get(key) ?? 0) + Math.round(o.vat_amount * 100));
    }
    for (const [key, satang] of byMonth) {
      const [month, company] = key.split('/');
      const report = (await t.app.inject({ method: 'GET', url: `/api/report/sales_tax_report?month=${month}&company=${company}&limit=1000`, headers: t.headers })).json().data;
      const pos = report.rows.filter((r: { doc_type: string }) => r.doc_type === 'pos_order');
      // one line per terminal and day: the demo's sales are receipts with VAT (the site issues full tax invoices only)
      expect(pos.every((r: { doc_no: string }) => /^ใบเสร็จรับเงิน \(ขายปลีก\) เลขที่ .+ ถึง .+$/.test(r.doc_no))).toBe(true);
      expect(pos.reduce((sum: number, r: { vat_amount: number }) => sum + Math.round(Number(r.vat_amount) * 100), 0)).toBe(satang);
    }
    expect(byMonth.size).toBeGreaterThan(0);
  });
});
