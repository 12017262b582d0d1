/**
 * GET /api/{document}/{id}/pdf: the billing note printed in Thai and English
 * (checked with pdftotext), the print flag, row scope for portal accounts,
 * the print counter and the per-role reprint limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pdfText, squeeze } from '../support/pdf-text.ts';
import { createTestApp, SCHEMAS_DIR, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { tempSchemasDir } from '../support/temp-schemas.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

const LONG_THAI = 'ค่าสินค้าตามใบกำกับภาษีสำหรับงานติดตั้งระบบคลังสินค้าอัตโนมัติพร้อมอุปกรณ์สแกนบาร์โค้ดและการฝึกอบรมพนักงานคลังสินค้าทุกสาขาทั่วประเทศไทย';

// billing_note with the reprint limit switched on, so the limit is tested on a real document schema
const limited = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'billing_note.json'), 'utf8'));
limited.print = { limitByRole: true };

describe.each(testDialects())('document PDF on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let noteId: number, otherNote: number, mine: number, company: number;
  let billNo: string;
  const schemas = tempSchemasDir([limited], true);

  beforeAll(async () => {
    t = await createTestApp(dialect, schemas.dir);
    c = new Client(t);
    company = await c.company();
    mine = await c.customer();
    const other = await c.customer();
    const body = c.billingNoteBody(mine, company, {
      total_amount: 12500,
      items: [
        { ref_doc: 'IV2611-0011', ref_date: '2026-11-01', description: LONG_THAI, amount: 7500 },
        { ref_doc: 'IV2611-0012', ref_date: '2026-11-01', description: 'ค่าขนส่ง', amount: 5000 },
      ],
    });
    billNo = body.bill_no as string;
    noteId = await c.make('billing_note', body);
    otherNote = await c.billingNote(other, company);
  });
  afterAll(async () => {
    await t?.close();
    schemas.remove();
  });

  it('prints in Thai: the number, Thai lines, Buddhist-era dates and the amount in Thai words', async () => {
    const res = await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=th`, c.admin);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res);
    expect(text).toContain(billNo);
    expect(squeeze(text)).toContain(squeeze('หนึ่งหมื่นสองพันห้าร้อยบาทถ้วน'));
    expect(squeeze(text)).toContain(squeeze('ค่าขนส่ง'));
    expect(squeeze(text)).toContain(squeeze('ใบวางบิล'));
    expect(text).toContain('3 พฤศจิกายน 2569');
    expect(text).toContain('12,500.00');
  });

  it('breaks a long Thai description between words, over several lines of its cell', async () => {
    const text = pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf`, c.admin), false);
    const whole = squeeze(LONG_THAI);
    const pieces = text.split('\n').map(squeeze).filter((l) => l.length >= 8 && whole.includes(l));
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(pieces.join('')).toBe(whole);
    // each line ends where Intl.Segmenter ends a word, never inside one
    const ends = new Set([...new Intl.Segmenter('th', { granularity: 'word' }).segment(LONG_THAI)].map((x) => squeeze(LONG_THAI.slice(0, x.index + x.segment.length)).length));
    let at = 0;
    for (const p of pieces) expect(ends.has((at += p.length))).toBe(true);
  });

  it('prints in English with English labels and the amount in English words', async () => {
    const res = await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=en`, c.admin);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res);
    expect(text).toContain('Billing note');
    expect(text).toContain('Twelve thousand five hundred baht only');
    expect(text).toContain('3 November 2026');
  });

  it("prints the issuer's bank account on every document, and each party's English address in English (issue 47 §4)", async () => {
    const ok = async (url: string, body: Record<string, unknown>) => expect((await c.call('PATCH', url, c.admin, body)).statusCode).toBe(200);
    await ok(`/api/your_company/${company}`, { bank_name: 'ธนาคารกสิกรไทย', bank_account_no: '123-4-56789-0', bank_account_name: 'บริษัท ทดสอบ จำกัด', address_en: '99/9 Bang Na-Trat Road, Bangkok 10260' });
    await ok(`/api/customer/${mine}`, { address_en: '59/1 Rama 2 Road, Samut Sakhon 74000' });
    const th = squeeze(pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=th`, c.admin)));
    expect(th).toContain(squeeze('บัญชีธนาคาร ธนาคารกสิกรไทย 123-4-56789-0 บริษัท ทดสอบ จำกัด'));
    expect(th).not.toContain(squeeze('Bang Na-Trat'));
    const en = squeeze(pdfText(await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=en`, c.admin)));
    expect(en).toContain(squeeze('Bank account ธนาคารกสิกรไทย 123-4-56789-0'));
    expect(en).toContain(squeeze('99/9 Bang Na-Trat Road, Bangkok 10260'));
    expect(en).toContain(squeeze('59/1 Rama 2 Road, Samut Sakhon 74000'));
    // the account number takes digits and dashes only
    expectError(await c.call('PATCH', `/api/your_company/${company}`, c.admin, { bank_account_no: 'KBANK 123' }), 400, 'VALIDATION_FAILED');
  });

  it('lists the print and email routes of documents in the OpenAPI document', async () => {
    const spec = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(Object.keys(spec.paths['/api/billing_note/{id}/pdf'])).toEqual(['get']);
    expect(Object.keys(spec.paths['/api/billing_note/{id}/email'])).toEqual(['post']);
    expect(spec.paths['/api/customer/{id}/pdf']).toBeUndefined();
  });

  it('refuses an unknown language', async () => {
    expectError(await c.call('GET', `/api/billing_note/${noteId}/pdf?lang=fr`, c.admin), 400, 'INVALID_QUERY');
  });

  it('needs the print flag', async () => {
    const viewer = await c.staff('no_print', { billing_note: { view: true, export: true, email: true } });
    expectError(await c.call('GET', `/api/billing_note/${noteId}/pdf`, viewer.headers), 403, 'FORBIDDEN');
    const printer = await c.staff('printer', { billing_note: { view: true, print: true } });
    // a note of its own: the other tests' prints count towards the reprint limit of noteId
    const fresh = await c.billingNote(mine, null);
    expect((await c.call('GET', `/api/billing_note/${fresh}/pdf`, printer.headers)).statusCode).toBe(200);
  });

  it('keeps portal accounts to their own documents: another customer\'s note and their own draft are 404, their own issued note 403 (no print flag)', async () => {
    const portal = await c.customerUser(mine);
    expectError(await c.call('GET', `/api/billing_note/${otherNote}/pdf`, portal.headers), 404, 'NOT_FOUND');
    const issued = await c.billingNote(mine, null);
    expectError(await c.call('GET', `/api/billing_note/${issued}/pdf`, portal.headers), 403, 'FORBIDDEN');
    // noteId is still a draft: not the customer's to see at all (access.customerStates)
    expectError(await c.call('GET', `/api/billing_note/${noteId}/pdf`, portal.headers), 404, 'NOT_FOUND');
  });

  it('counts prints per document and refuses past the role\'s production_report_print_times', async () => {
    const fresh = await c.billingNote(mine, null);
    // Client.role gives production_report_print_times 1; raise it to 2 for this role
    const clerk = await c.staff('limited', { billing_note: { view: true, print: true } });
    expect((await c.call('PATCH', `/api/user_role/${clerk.roleId}`, c.admin, { production_report_print_times: 2 })).statusCode).toBe(200);
    const headers = await c.signIn(clerk.username);
    const first = await c.call('GET', `/api/billing_note/${fresh}/pdf`, headers);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-print-count']).toBe('1');
    expect((await c.call('GET', `/api/billing_note/${fresh}/pdf`, headers)).headers['x-print-count']).toBe('2');
    const third = await c.call('GET', `/api/billing_note/${fresh}/pdf`, headers);
    expectError(third, 403, 'FORBIDDEN');
    expect(third.json().error.message).toMatch(/printed 2 time\(s\).*at most 2/);
    // the refused print was not counted: the administrator (limit 99) prints the third copy
    const admin = await c.call('GET', `/api/billing_note/${fresh}/pdf`, c.admin);
    expect(admin.headers['x-print-count']).toBe('3');
  });
});
