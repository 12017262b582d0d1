/**
 * Numbering series (issue 8 §9, issue 9 §1): numbers follow the business's
 * time zone, never collide under parallel creation, and a series never hands
 * out a number that already exists (seeded or imported rows).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { sql } from 'kysely';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { systemContext } from '../../server/crud/access-policy.ts';

describe.each(testDialects())('numbering series on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let company: number;
  let customer: number;
  const realNow = businessClock.now;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    company = await c.company();
    customer = await c.customer();
  });
  afterEach(() => { businessClock.now = realNow; });
  afterAll(async () => t?.close());

  const at = (iso: string) => { businessClock.now = () => new Date(iso); };
  const bill = (extra: Record<string, unknown> = {}) => c.call('POST', '/api/billing_note', c.admin, { bill_date: '2026-11-15', customer_id: customer, your_company_id: company, ...extra });

  it('continues after numbers that already exist instead of answering 409', async () => {
    at('2026-11-15T03:00:00Z');
    // seeded the way the demo business is: numbers given by the rows themselves
    for (let i = 1; i <= 6; i++) await t.service.create('billing_note', { bill_no: `BN202611-000${i}`, bill_date: '2026-11-03', customer_id: customer, total_amount: 100, items: [{ description: 'ค่าสินค้า', amount: 100 }] }, systemContext);
    const res = await bill();
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.bill_no).toBe('BN202611-0007');
    expect((await bill()).json().data.bill_no).toBe('BN202611-0008');
  });

  it('a document made at 00:30 on 1 January in Bangkok is numbered and dated in the new year', async () => {
    at('2026-12-31T17:30:00Z');
    const q = await c.call('POST', '/api/quotation', c.admin, { your_company_id: company, customer_id: customer, items: [] });
    expect(q.statusCode, q.body).toBe(201);
    expect(q.json().data.doc_no).toBe('QT202701-0001');
    expect(q.json().data.doc_date).toBe('2027-01-01');
    at('2026-12-31T16:59:00Z');
    expect((await c.call('POST', '/api/quotation', c.admin, { your_company_id: company, customer_id: customer })).json().data.doc_no).toBe('QT202612-0001');
  });

  it('asks an index, not the whole table, whether a number is taken (deleted rows included)', async () => {
    // the statement nextNumber runs; the unique indexes leave deleted rows out, so the numbers need an index of their own
    // (a document's number from its schema's numbering; a barcode's code from the site's print format)
    const k = t.service.db.kysely;
    for (const [table, field] of [['billing_note', 'bill_no'], ['barcodes', 'code']] as const) {
      const check = k.selectFrom(table).select('id').where(field, '=', 'X-0001').compile();
      if (dialect === 'sqlite') {
        const plan = await sql.raw<{ detail: string }>(`explain query plan ${check.sql.replace('?', "'X-0001'")}`).execute(k);
        expect(plan.rows.map((r) => r.detail).join(' | ')).toMatch(new RegExp(`USING (COVERING )?INDEX ix_${table}_${field}\\b`));
      } else {
        // tables this small are cheaper to scan; forbidding scans shows whether an index can answer at all
        const plan = await k.connection().execute(async (conn) => {
          await sql`set enable_seqscan = off`.execute(conn);
          try {
            return await sql.raw<{ 'QUERY PLAN': string }>(`explain ${check.sql.replace('$1', "'X-0001'")}`).execute(conn);
          } finally {
            await sql`reset enable_seqscan`.execute(conn);
          }
        });
        expect(plan.rows.map((r) => r['QUERY PLAN']).join(' | ')).toMatch(new RegExp(`(Index (Only )?Scan using|Bitmap Index Scan on) ix_${table}_${field}\\b`));
      }
    }
  });

  it('200 parallel creations get 200 distinct, consecutive numbers', async () => {
    at('2026-10-10T05:00:00Z');
    const res = await Promise.all(Array.from({ length: 200 }, () => bill({ bill_date: '2026-10-10' })));
    expect(res.filter((r) => r.statusCode !== 201).map((r) => r.body)).toEqual([]);
    const seqs = res.map((r) => Number(String(r.json().data.bill_no).slice(-4))).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
