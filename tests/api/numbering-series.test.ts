/**
 * Numbering series through the API: unique under parallel creation, periods of the
 * business calendar (Asia/Bangkok), continuing after numbers already in the table,
 * separate counters per company, and no gap when a creation rolls back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ADMIN_PASSWORD, createTestApp, SCHEMAS_DIR, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { businessDate } from '../../engine/documents/business-time.ts';

/** A copy of the schemas where billing notes are numbered per company (unique per company, not overall). */
function perCompanySchemas(): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-schemas-'));
  cpSync(SCHEMAS_DIR, dir, { recursive: true });
  const file = join(dir, 'billing_note.json');
  const bn = JSON.parse(readFileSync(file, 'utf8'));
  bn.numbering.perField = 'your_company_id';
  delete bn.fields.bill_no.unique;
  bn.indexes = [...(bn.indexes ?? []), { fields: ['your_company_id', 'bill_no'], unique: true }];
  writeFileSync(file, JSON.stringify(bn));
  return dir;
}

/** This month's billing-note prefix in Bangkok: "BN202611-". */
function bnPrefix(now = new Date()): string {
  const d = businessDate(now, 'Asia/Bangkok');
  return `BN${d.year}${String(d.month).padStart(2, '0')}-`;
}

describe.each(testDialects())('numbering series on %s', (dialect) => {
  let t: TestApp;
  let customerId: number;
  const post = (url: string, payload: object, headers = t.headers) => t.app.inject({ method: 'POST', url, headers, payload });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const c = await post('/api/customer', { code: 'C-NUM', name_th: 'ลูกค้าทดสอบเลขที่' });
    expect(c.statusCode, c.body).toBe(201);
    customerId = c.json().data.id;
  });
  afterAll(async () => { await t?.close(); });
  afterEach(() => { vi.useRealTimers(); });

  it('200 parallel creations get 200 distinct numbers', async () => {
    const responses = await Promise.all(Array.from({ length: 200 }, (_, i) => post('/api/working_record', { subject: `parallel ${i}` })));
    for (const r of responses) expect(r.statusCode, r.body).toBe(201);
    const numbers = responses.map((r) => r.json().data.run_number as string);
    expect(new Set(numbers).size).toBe(200);
    const seqs = numbers.map((n) => Number(n.slice(-4))).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });

  it('a billing note created at 17:30 UTC on 31 December is numbered in the new year (Bangkok 00:30, 1 January)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-12-31T17:30:00Z'));
    // sign in again: the suite's token was issued in the real present, before this clock jump
    const signin = await t.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const headers = { authorization: `Bearer ${signin.json().data.id_token}` };
    const res = await post('/api/billing_note', { bill_date: '2031-01-01', customer_id: customerId }, headers);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.bill_no).toBe('BN203101-0001');
    const wr = await post('/api/working_record', { subject: 'new year' }, headers);
    expect(wr.json().data.run_number).toBe('WR3101-0001');
  });

  it('continues after numbers already in the table instead of answering 409', async () => {
    const prefix = bnPrefix();
    for (let i = 1; i <= 6; i++) {
      const r = await post('/api/billing_note', { bill_no: `${prefix}${String(i).padStart(4, '0')}`, bill_date: '2026-11-01', customer_id: customerId });
      expect(r.statusCode, r.body).toBe(201);
    }
    const first = await post('/api/billing_note', { bill_date: '2026-11-02', customer_id: customerId });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.bill_no).toBe(`${prefix}0007`);
    // a number typed ahead of the counter is skipped, not handed out again
    expect((await post('/api/billing_note', { bill_no: `${prefix}0008`, bill_date: '2026-11-02', customer_id: customerId })).statusCode).toBe(201);
    const next = await post('/api/billing_note', { bill_date: '2026-11-02', customer_id: customerId });
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().data.bill_no).toBe(`${prefix}0009`);
  });

  it('a rolled-back creation gives its number back: no gap', async () => {
    const before = await post('/api/working_record', { subject: 'before' });
    const seq = Number(before.json().data.run_number.slice(-4));
    let fail = true;
    // fails inside the write's transaction, after the number was drawn and the row inserted
    t.service.onWrite(async (_trx, e) => { if (fail && e.entity === 'working_record') { fail = false; throw new Error('simulated failure'); } });
    const failed = await post('/api/working_record', { subject: 'rolled back' });
    expect(failed.statusCode).toBe(500);
    expect(fail).toBe(false);
    const after = await post('/api/working_record', { subject: 'after' });
    expect(after.statusCode, after.body).toBe(201);
    expect(Number(after.json().data.run_number.slice(-4))).toBe(seq + 1);
  });
});

describe.each(testDialects())('per-company numbering series on %s', (dialect) => {
  let t: TestApp;
  let schemas: string;
  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: t.headers, payload });

  beforeAll(async () => {
    schemas = perCompanySchemas();
    t = await createTestApp(dialect, schemas);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(schemas, { recursive: true, force: true });
  });

  it('each company keeps its own counter, also when numbers of one company already exist', async () => {
    const company = async (code: string, tax_id: string) => {
      const r = await post('/api/your_company', { code, name_th: `บริษัท ${code}`, tax_id });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.id as number;
    };
    const a = await company('A', '0105536000313');
    const b = await company('B', '0105555001231');
    const c = await post('/api/customer', { code: 'C-PER', name_th: 'ลูกค้า' });
    const customer_id = c.json().data.id;
    const prefix = bnPrefix();
    // company A already has 0001..0003 typed by hand
    for (let i = 1; i <= 3; i++) expect((await post('/api/billing_note', { bill_no: `${prefix}000${i}`, bill_date: '2026-11-01', customer_id, your_company_id: a })).statusCode).toBe(201);
    const make = async (your_company_id: number) => {
      const r = await post('/api/billing_note', { bill_date: '2026-11-02', customer_id, your_company_id });
      expect(r.statusCode, r.body).toBe(201);
      return r.json().data.bill_no as string;
    };
    expect(await make(b)).toBe(`${prefix}0001`);
    expect(await make(a)).toBe(`${prefix}0004`);
    expect(await make(b)).toBe(`${prefix}0002`);
    expect(await make(a)).toBe(`${prefix}0005`);
  });
});
