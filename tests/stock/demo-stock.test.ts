/** The demo business has stock in every inventory, posted through real receipts, and a purchase order received in part. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';

describe.each(testDialects())('demo stock on %s', (dialect) => {
  let t: TestApp;
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Record<string, any>[];
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await loadSeedDir(t.service, resolve(import.meta.dirname, '../../seed/demo'));
  });
  afterAll(async () => t?.close());

  it('every demo inventory holds stock, and the ledger explains it', async () => {
    const inventories = await get('/api/inventory');
    const balance = await get('/api/stock/balance');
    for (const inv of inventories) expect(balance.some((r) => r.inventory_id === inv.id && r.qty_on_hand > 0), inv.code).toBe(true);
    const moves = await get('/api/stock_movement?limit=500');
    expect(moves.every((m) => m.doc_entity === 'goods_receipt')).toBe(true);
    const total = (rows: Record<string, any>[], f: (r: Record<string, any>) => number) => rows.reduce((s, r) => s + f(r), 0);
    expect(total(moves, (m) => (m.direction === 'in' ? m.qty : -m.qty))).toBe(total(balance, (r) => r.qty_on_hand));
  });

  it('a demo purchase order is partly received', async () => {
    const pos = await get('/api/purchase_order');
    expect(pos.map((p) => p.status).sort()).toEqual(['draft', 'partially_received']);
  });
});
