/**
 * The portal's billing note PDF (issue 9 §3; spec §6, Customer role -1 may not
 * print): GET /api/customerpage/{customerId}/bill/{id}/pdf answers a view-only
 * copy, marked as such, of the customer's own note; another customer's note is
 * 404; it is not a print, so the print counter does not move.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, type Headers } from '../support/security-fixtures.ts';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';

/** The PDF's text through poppler's pdftotext, in NFKC and without spaces (as document-print.test.ts reads it). */
function pdfText(res: LightMyRequestResponse): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-portal-pdf-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    execFileSync('pdftotext', [join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    return squeeze(readFileSync(join(dir, 'doc.txt'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B]+/g, '');

/** The PDF's title through poppler's pdfinfo: what a viewer shows in its bar. */
function pdfTitle(res: LightMyRequestResponse): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-portal-pdf-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    return /^Title:\s*(.*)$/m.exec(execFileSync('pdfinfo', [join(dir, 'doc.pdf')], { encoding: 'utf8' }))?.[1]?.trim() ?? '';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each(testDialects())('portal bill PDF on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let mine: number, other: number, myNote: number, otherNote: number;
  let me: { headers: Headers };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    const company = await c.company();
    mine = await c.customer();
    other = await c.customer();
    myNote = await c.billingNote(mine, company);
    otherNote = await c.billingNote(other, company);
    me = await c.customerUser(mine);
  });
  afterAll(async () => t?.close());

  const url = (customer: number, note: number, q = '') => `/api/customerpage/${customer}/bill/${note}/pdf${q}`;

  it('answers the customer\'s own note as an inline PDF marked as a view-only copy', async () => {
    const res = await c.call('GET', url(mine, myNote), me.headers);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toMatch(/^inline; filename="copy-billing_note-/);
    const text = pdfText(res);
    expect(text).toContain(squeeze('สำเนา — สำหรับดูเท่านั้น / COPY — for viewing only'));
    const billNo = (await c.call('GET', `/api/billing_note/${myNote}`, me.headers)).json().data.bill_no as string;
    expect(text).toContain(squeeze(billNo));
    // the copy carries a title that says what it is (viewers honouring DisplayDocTitle show it)
    expect(pdfTitle(res)).toBe(`ใบวางบิล ${billNo} (สำเนา)`);
    // the customer still may not print: the print route stays refused
    expectError(await c.call('GET', `/api/billing_note/${myNote}/pdf`, me.headers), 403, 'FORBIDDEN');
  });

  it('another customer\'s note is 404, by id or under the other customer\'s path; filters change nothing', async () => {
    expectError(await c.call('GET', url(mine, otherNote), me.headers), 404, 'NOT_FOUND');
    expectError(await c.call('GET', url(other, otherNote), me.headers), 404, 'NOT_FOUND');
    expectError(await c.call('GET', url(other, myNote), me.headers), 404, 'NOT_FOUND');
    const filtered = `?filter=${encodeURIComponent(JSON.stringify({ id: { _eq: otherNote } }))}`;
    expectError(await c.call('GET', url(mine, otherNote, filtered), me.headers), 404, 'NOT_FOUND');
    expect((await c.call('GET', url(mine, myNote, filtered), me.headers)).statusCode).toBe(200);
    expectError(await c.call('GET', url(mine, 999_999_999), me.headers), 404, 'NOT_FOUND');
  });

  it('a draft of the customer\'s own is 404 too: the customer sees a bill once it is issued', async () => {
    const company = (await c.call('GET', `/api/billing_note/${myNote}`, c.admin)).json().data.your_company_id as number;
    const draft = await c.draftBillingNote(mine, company);
    expectError(await c.call('GET', url(mine, draft), me.headers), 404, 'NOT_FOUND');
    expect((await c.call('POST', `/api/billing_note/${draft}/actions/issue`, c.admin, {})).statusCode).toBe(200);
    expect((await c.call('GET', url(mine, draft), me.headers)).statusCode).toBe(200);
  });

  it('is not a print: the print counter does not move', async () => {
    const fresh = await c.billingNote(mine, null);
    for (let i = 0; i < 3; i++) expect((await c.call('GET', url(mine, fresh), me.headers)).statusCode).toBe(200);
    const printed = await c.call('GET', `/api/billing_note/${fresh}/pdf`, c.admin);
    expect(printed.statusCode).toBe(200);
    expect(printed.headers['x-print-count']).toBe('1');
  });

  it('is described in the OpenAPI document', async () => {
    const spec = (await c.call('GET', '/api/docs/json', c.admin)).json();
    expect(Object.keys(spec.paths['/api/customerpage/{customerId}/bill/{id}/pdf'])).toEqual(['get']);
  });

  it('refuses a malformed id and an unknown language with 400', async () => {
    expectError(await c.call('GET', `/api/customerpage/${mine}/bill/abc/pdf`, me.headers), 400, 'INVALID_QUERY');
    expectError(await c.call('GET', url(mine, myNote, '?lang=fr'), me.headers), 400, 'INVALID_QUERY');
  });
});
