/**
 * Issue 37 §5: the demo business has a record behind every record screen of
 * the spec, including a debit note and an over-scan, each made through the
 * engine's own calls as bootstrap makes them on a fresh start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { seedFinanceHistory } from '../../seed/demo-finance.ts';
import { seedScanOver } from '../../seed/demo-scans.ts';

describe.each(testDialects())('demo records for every screen on %s', (dialect) => {
  let t: TestApp;
  let counts: Record<string, number>;
  const get = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url, headers: t.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  beforeAll(async () => {
    t = await createDemoTestApp(dialect);
    await seedFinanceHistory(t.service);
    counts = await seedScanOver(t.service);
  }, 180_000);
  afterAll(async () => t?.close());

  it('an issued debit note on an invoice of the demo, with its reason and its line', async () => {
    const notes = await get('/api/debit_note?fields=id,doc_no,status,customer_id,total_amount&limit=10');
    expect(notes).toHaveLength(1);
    expect(notes[0].status).toBe('issued');
    expect(notes[0].doc_no).toMatch(/\S/);
    expect(Number(notes[0].total_amount)).toBeGreaterThan(0);
    const one = await get(`/api/debit_note/${notes[0].id}`);
    expect(one.items).toHaveLength(1);
    expect(Number(one.items[0].qty)).toBe(2);
  });

  it('an over-scan on a receipt being counted, which its screen opens', async () => {
    expect(counts).toEqual({ goods_receipt: 1, barcodes_scan_over: 1 });
    const overs = await get('/api/barcodes_scan_over?limit=10');
    expect(overs).toHaveLength(1);
    const over = await get(`/api/barcodes_scan_over/${overs[0].id}`);
    expect(over).toMatchObject({ doc_entity: 'goods_receipt', code: 'P001' });
    expect(Number(over.wanted)).toBe(2);
    expect(Number(over.scanned)).toBe(2);
    const receipt = await get(`/api/goods_receipt/${over.doc_id}`);
    expect(receipt.status).toBe('draft');
    expect(Number(receipt.items[0].scanned_qty)).toBe(2);
  });
});
