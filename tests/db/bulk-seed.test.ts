/**
 * The benchmark seeder writes ledger rows around the service, so check that
 * what it stores reads back through the generic API as valid records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkSeed, LEDGER } from '../../seed/bulk-seed.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

type Row = Record<string, unknown>;
const SYSTEM = new Set(['id', 'created_at', 'created_by', 'updated_at', 'updated_by']);

describe.each(testDialects())('bulkSeed on %s', (dialect) => {
  let t: TestApp;
  let productIds: number[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ productIds } = await bulkSeed(t.db, t.registry, { size: 2000 }));
  });
  afterAll(async () => { await t?.close(); });

  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { success: boolean; data: Row | Row[]; meta?: { total_count?: number } };
  };

  it('writes exactly the requested number of ledger rows', async () => {
    const body = await get(`/api/${LEDGER}?limit=1&meta=total_count`);
    expect(body.meta?.total_count).toBe(2000);
    expect(productIds.length).toBeGreaterThanOrEqual(20);
  });

  it('leaves the balance table equal to the ledger, as real postings do', async () => {
    for (const p of productIds.slice(0, 5)) {
      const now = (await get(`/api/stock/balance?product_id=${p}&group_by=inventory`)).data as Row[];
      const summed = (await get(`/api/stock/balance?product_id=${p}&group_by=inventory&as_of=2099-12-31`)).data as Row[];
      const onHand = (rows: Row[]) => Object.fromEntries(rows.map((r) => [String(r.inventory_id), r.qty_on_hand]));
      expect(Object.keys(onHand(summed)).length).toBeGreaterThan(0);
      expect(onHand(now)).toEqual(onHand(summed));
    }
  });

  it('stores values that decode to a valid record through the generic API', async () => {
    const body = await get(`/api/${LEDGER}?limit=1`);
    const rows = body.data as Row[];
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const entity = t.registry.get(LEDGER)!;

    expect(typeof row.movement_date).toBe('string');
    expect(new Date(row.movement_date as string).toISOString()).toBe(row.movement_date);
    expect(['in', 'out']).toContain(row.direction);
    expect(typeof row.qty).toBe('number');
    expect(row.qty as number).toBeGreaterThan(0);
    expect(Number((row.qty as number).toFixed(4))).toBe(row.qty);
    expect(typeof row.unit_cost).toBe('number');
    expect(Number((row.unit_cost as number).toFixed(2))).toBe(row.unit_cost);
    expect(productIds).toContain(row.product_id);
    expect(row.lot_no).toMatch(/^L\d{4}-\d{4}-\d{2}$/);

    // what was read back would be accepted as a new entry
    const input = Object.fromEntries(Object.entries(row).filter(([k, v]) => !SYSTEM.has(k) && v !== null));
    expect(t.service.validators.get(entity, 'create')(input, undefined)).toEqual([]);

    // the links point at real rows
    const product = await get(`/api/product/${row.product_id}`);
    expect((product.data as Row).id).toBe(row.product_id);
    const inventory = await get(`/api/inventory/${row.inventory_id}`);
    expect((inventory.data as Row).id).toBe(row.inventory_id);
  });

  it('reads a row by id with the same values as the list', async () => {
    const [first] = (await get(`/api/${LEDGER}?limit=1&sort=id`)).data as Row[];
    const one = await get(`/api/${LEDGER}/${first!.id}`);
    expect(one.data).toEqual(first);
  });
});
