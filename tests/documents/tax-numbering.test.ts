/**
 * Issue 31 §5: tax document numbers an auditor accepts (Revenue Code s. 86/4
 * practice). Tax invoices, credit notes, debit notes and receipts are numbered
 * per issuing company (a branch is a company row of its own), when issued,
 * consecutively under concurrency; the number's period follows the document's
 * date; a date after today or before the last issued one of the series is
 * refused in Thai. The schema keys are `numbering.per`, `dateField`, `dateRule`.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, q } from '../support/security-fixtures.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { systemContext } from '../../server/crud/access-policy.ts';

type Row = Record<string, any>;
const seqOf = (no: string) => Number(no.split('-').pop());
const TODAY = '2026-11-26';

describe.each(testDialects())('tax document numbering on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let customer: number;
  let product: number;
  let reason: number;
  const realNow = businessClock.now;
  /** 10:00 in Bangkok on that day */
  const on = (date: string) => { businessClock.now = () => new Date(`${date}T03:00:00Z`); };

  beforeAll(async () => {
    on(TODAY);
    t = await createTestApp(dialect);
    c = new Client(t);
    customer = await c.customer();
    product = await c.product();
    reason = await c.make('return_reason', { code: c.next('RR'), name_th: 'สินค้าชำรุด', name_en: 'Damaged' });
  });
  afterEach(() => on(TODAY));
  afterAll(async () => { businessClock.now = realNow; await t?.close(); });

  const ok = async (p: Promise<{ statusCode: number; body: string; json(): any }>, status = 200): Promise<Row> => {
    const res = await p;
    expect(res.statusCode, res.body).toBe(status);
    return res.json().data;
  };
  const codeOf = async (company: number): Promise<string> => (await ok(c.call('GET', `/api/your_company/${company}`, c.admin))).code;
  const invoice = (company: number, doc_date = TODAY) => ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date, your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 1, price: 100 }] }), 201);
  const receipt = (company: number, doc_date = TODAY) => ok(c.call('POST', '/api/receipt', c.admin, { doc_date, your_company_id: company, customer_id: customer, payment_method: 'cash', items: [{ description: 'ค่าสินค้า', amount: 100 }] }), 201);
  /** A line of an issued tax invoice of the company, which its notes correct (issue 44 §3): its newest, else a new one. */
  const invoiceLine = async (company: number, doc_date: string): Promise<number> => {
    // a note is not dated before its invoice (issue 44 §4): the newest issued invoice of that day or earlier
    const found = (await ok(c.call('GET', `/api/tax_invoice?filter=${q({ your_company_id: { _eq: company }, status: { _eq: 'issued' }, doc_date: { _lte: doc_date } })}&sort=-id&limit=1`, c.admin)))[0];
    if (found) return (await ok(c.call('GET', `/api/tax_invoice/${found.id}`, c.admin))).items[0].id;
    const made = await ok(c.call('POST', '/api/tax_invoice', c.admin, { doc_date, your_company_id: company, customer_id: customer, items: [{ product_id: product, qty: 10, price: 100 }] }), 201);
    return (await ok(c.call('POST', `/api/tax_invoice/${made.id}/actions/issue`, c.admin))).items[0].id;
  };
  const creditNote = async (company: number, doc_date = TODAY) => ok(c.call('POST', '/api/credit_note', c.admin, { doc_date, your_company_id: company, customer_id: customer, return_reason_id: reason, items: [{ description: 'ลดราคา', amount: 10, source_line_id: await invoiceLine(company, doc_date) }] }), 201);
  const issue = (entity: string, id: number, action = 'issue') => c.call('POST', `/api/${entity}/${id}/actions/${action}`, c.admin);
  const issued = async (entity: string, id: number, action = 'issue') => (await ok(issue(entity, id, action))).doc_no as string;

  it('numbers per issuing company: companies 1, 2, 1 get 0001, 0001, 0002, each with its own code', async () => {
    const [one, two] = [await c.company(), await c.company()];
    const [a, b, d] = [await invoice(one), await invoice(two), await invoice(one)];
    expect([await issued('tax_invoice', a.id), await issued('tax_invoice', b.id), await issued('tax_invoice', d.id)])
      .toEqual([`${await codeOf(one)}-IV202611-0001`, `${await codeOf(two)}-IV202611-0001`, `${await codeOf(one)}-IV202611-0002`]);
    // receipts and credit notes the same way, each entity its own series
    const [r1, r2, r3] = [await receipt(one), await receipt(two), await receipt(one)];
    expect([await issued('receipt', r1.id, 'post'), await issued('receipt', r2.id, 'post'), await issued('receipt', r3.id, 'post')].map(seqOf)).toEqual([1, 1, 2]);
    const cn = await creditNote(two);
    expect(await issued('credit_note', cn.id)).toBe(`${await codeOf(two)}-CN202611-0001`);
  });

  it('a draft credit note, debit note or receipt has no number, so deleting one leaves no gap', async () => {
    const company = await c.company();
    const code = await codeOf(company);
    for (const [entity, make, action, prefix] of [['credit_note', creditNote, 'issue', 'CN'], ['receipt', receipt, 'post', 'RC']] as const) {
      const gone = await make(company);
      expect(gone.doc_no).toBeNull();
      expect((await c.call('DELETE', `/api/${entity}/${gone.id}`, c.admin)).statusCode).toBe(200);
      const kept = await make(company);
      expect(kept.doc_no).toBeNull();
      expect(await issued(entity, kept.id, action)).toBe(`${code}-${prefix}202611-0001`);
    }
    const dn = await ok(c.call('POST', '/api/debit_note', c.admin, { doc_date: TODAY, your_company_id: company, customer_id: customer, return_reason_id: reason, items: [{ product_id: product, qty: 1, price: 50, source_line_id: await invoiceLine(company, TODAY) }] }), 201);
    expect(dn.doc_no).toBeNull();
    expect(await issued('debit_note', dn.id)).toBe(`${code}-DN202611-0001`);
  });

  it('a back-dated invoice is numbered in the period of its date, not of the day it is issued', async () => {
    const company = await c.company();
    const code = await codeOf(company);
    const sept = await invoice(company, '2026-09-15');
    expect(await issued('tax_invoice', sept.id)).toBe(`${code}-IV202609-0001`);
    const nov = await invoice(company);
    expect(await issued('tax_invoice', nov.id)).toBe(`${code}-IV202611-0001`);
  });

  it('refuses a date after today, in Thai, and the draft stays a draft without a number', async () => {
    const company = await c.company();
    const later = await invoice(company, '2026-11-27');
    const res = await c.call('POST', `/api/tax_invoice/${later.id}/actions/issue`, c.admin, undefined, { headers: { ...c.admin, 'accept-language': 'th' } });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field: 'doc_date', code: 'issue_date_future', message: expect.stringContaining('ลงวันที่ล่วงหน้าไม่ได้') })]);
    expect(res.json().error.message).toMatch(/^ข้อมูลบางช่องไม่ถูกต้อง/);
    expect(await ok(c.call('GET', `/api/tax_invoice/${later.id}`, c.admin))).toMatchObject({ status: 'draft', doc_no: null });
    // on its day it is issued, as the first of the series: the refusal took no number
    on('2026-11-27');
    expect(seqOf(await issued('tax_invoice', later.id))).toBe(1);
    // a receipt dated tomorrow likewise
    const r = await receipt(company, '2026-11-28');
    expectError(await issue('receipt', r.id, 'post'), 400, 'VALIDATION_FAILED');
    expect(await ok(c.call('GET', `/api/receipt/${r.id}`, c.admin))).toMatchObject({ status: 'draft', doc_no: null });
  });

  it('refuses a date before the last issued document of its series; the same day and other companies are fine', async () => {
    const [company, other] = [await c.company(), await c.company()];
    // an invoice of the 18th, which the credit note of the 19th below corrects
    await issued('tax_invoice', (await invoice(company, '2026-11-18')).id);
    await issued('tax_invoice', (await invoice(company, '2026-11-20')).id);
    const early = await invoice(company, '2026-11-19');
    const res = await c.call('POST', `/api/tax_invoice/${early.id}/actions/issue`, c.admin, undefined, { headers: { ...c.admin, 'accept-language': 'th' } });
    expectError(res, 400, 'VALIDATION_FAILED');
    const [field] = res.json().error.details.fields;
    expect(field).toMatchObject({ field: 'doc_date', code: 'issue_date_order' });
    expect(field.message).toContain('2026-11-20');
    expect(field.message).toContain(`${await codeOf(company)}-IV202611-0002`);
    expect(await ok(c.call('GET', `/api/tax_invoice/${early.id}`, c.admin))).toMatchObject({ status: 'draft', doc_no: null });
    // a 1998 invoice: refused for the same reason
    const old = await invoice(company, '1998-06-30');
    expectError(await issue('tax_invoice', old.id), 400, 'VALIDATION_FAILED');
    expect(seqOf(await issued('tax_invoice', (await invoice(company, '2026-11-20')).id))).toBe(3);
    expect(seqOf(await issued('tax_invoice', (await invoice(other, '2026-11-19')).id))).toBe(1);
    // another document kind is another series: a credit note of the 19th is the first of its own
    expect(seqOf(await issued('credit_note', (await creditNote(company, '2026-11-19')).id))).toBe(1);
  });

  it('an amendment of a cancelled invoice is a new invoice: dated the day it is made, numbered when issued', async () => {
    const company = await c.company();
    const first = await invoice(company, '2026-11-20');
    await issued('tax_invoice', first.id);
    await issued('tax_invoice', (await invoice(company, '2026-11-24')).id);
    await ok(issue('tax_invoice', first.id, 'cancel'));
    const amended = await ok(c.call('POST', `/api/tax_invoice/${first.id}/amend`, c.admin), 201);
    expect(amended).toMatchObject({ amended_from: first.id, doc_date: TODAY, doc_no: null, status: 'draft' });
    expect(seqOf(await issued('tax_invoice', amended.id))).toBe(3);
  });

  it('a receipt numbered as a draft before this rule (older data) keeps its number and does not date the series', async () => {
    const company = await c.company();
    const old = await t.service.create('receipt', { doc_date: '2026-11-25', your_company_id: company, customer_id: customer, payment_method: 'cash', items: [{ description: 'ค่าสินค้า', amount: 100 }] }, systemContext, { doc_no: 'RC202611-0042' });
    expect(old).toMatchObject({ doc_no: 'RC202611-0042', status: 'draft' });
    expect(seqOf(await issued('receipt', (await receipt(company, '2026-11-24')).id, 'post'))).toBe(1);
    expect(await issued('receipt', Number(old.id), 'post')).toBe('RC202611-0042');
  });

  it('parallel issues of two companies take consecutive numbers per company, none twice and none skipped', async () => {
    const [one, two] = [await c.company(), await c.company()];
    const drafts: { company: number; id: number }[] = [];
    for (let i = 0; i < 16; i++) {
      const company = i % 2 ? two : one;
      drafts.push({ company, id: (await invoice(company)).id });
      drafts.push({ company, id: (await receipt(company)).id * -1 });
    }
    const res = await Promise.all(drafts.map((d) => (d.id > 0 ? issue('tax_invoice', d.id) : issue('receipt', -d.id, 'post'))));
    expect(res.filter((r) => r.statusCode !== 200).map((r) => r.body)).toEqual([]);
    for (const company of [one, two]) {
      for (const kind of ['IV', 'RC']) {
        const nos = res.map((r) => r.json().data).filter((d) => d.your_company_id === company && String(d.doc_no).includes(`-${kind}`)).map((d) => d.doc_no as string);
        expect(nos.map(seqOf).sort((a, b) => a - b), `${company} ${kind}`).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        expect(new Set(nos).size).toBe(8);
      }
    }
  });

  it('parallel issues with dates going back refuse exactly those before an issued one of their series', async () => {
    const company = await c.company();
    // the 26th first; then the 25th and the 26th in parallel: the 25th can only be refused, the 26th only numbered
    await issued('tax_invoice', (await invoice(company, '2026-11-26')).id);
    const ids = [];
    for (let i = 0; i < 10; i++) ids.push({ late: i % 2 === 0, id: (await invoice(company, i % 2 === 0 ? '2026-11-26' : '2026-11-25')).id });
    const res = await Promise.all(ids.map((x) => issue('tax_invoice', x.id)));
    expect(res.map((r) => r.statusCode)).toEqual(ids.map((x) => (x.late ? 200 : 400)));
    expect(res.filter((r) => r.statusCode === 200).map((r) => seqOf(r.json().data.doc_no)).sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6]);
  });
});
