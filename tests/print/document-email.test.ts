/**
 * POST /api/{document}/{id}/email against a local SMTP sink (smtp-server on
 * 127.0.0.1, a free port): the message arrives with the PDF attached, the email
 * flag and row scope are enforced, addresses are checked, and the send is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError } from '../support/security-fixtures.ts';

interface Received { from: string; to: string[]; raw: string }

/** An SMTP server that keeps every message it is given. */
async function smtpSink(): Promise<{ url: string; messages: Received[]; close(): Promise<void> }> {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, messages, close: () => new Promise((ok) => server.close(() => ok())) };
}

/** The bytes of the first application/pdf part of a MIME message (nodemailer sends it base64). */
function pdfAttachment(raw: string): { filename: string; bytes: Buffer } | null {
  const m = /Content-Type: application\/pdf;?[^\r\n]*(?:\r\n[ \t][^\r\n]*)*\r\n((?:[^\r\n]+\r\n)*?)\r\n([A-Za-z0-9+/=\r\n]+?)\r\n--/i.exec(raw);
  if (!m) return null;
  const filename = /filename="?([^"\r\n;]+)"?/i.exec(raw.slice(m.index))?.[1] ?? '';
  return { filename, bytes: Buffer.from(m[2]!.replace(/\s+/g, ''), 'base64') };
}

describe.each(testDialects())('emailing a document on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let noteId: number, otherNote: number;
  let mine: number;

  beforeAll(async () => {
    sink = await smtpSink();
    t = await createTestApp(dialect, undefined, { mail: { smtpUrl: sink.url, from: 'billing@example.co.th' } });
    c = new Client(t);
    const company = await c.company();
    mine = await c.customer();
    noteId = await c.billingNote(mine, company);
    otherNote = await c.billingNote(await c.customer(), company);
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  it('sends the PDF as an attachment and writes the audit log', async () => {
    const res = await c.call('POST', `/api/billing_note/${noteId}/email`, c.admin, { to: ['buyer@example.com'], cc: 'boss@example.com', subject: 'ใบวางบิล', message: 'เรียน ฝ่ายบัญชี', lang: 'en' });
    expect(res.statusCode, res.body).toBe(200);
    expect(sink.messages).toHaveLength(1);
    const msg = sink.messages[0]!;
    expect(msg.from).toBe('billing@example.co.th');
    expect(msg.to.sort()).toEqual(['boss@example.com', 'buyer@example.com']);
    const att = pdfAttachment(msg.raw);
    expect(att, msg.raw.slice(0, 2000)).not.toBeNull();
    expect(att!.bytes.subarray(0, 4).toString()).toBe('%PDF');
    expect(att!.filename).toMatch(/^billing_note-BN-\d+\.pdf$/);
    const log = await t.db.kysely.selectFrom('system_log').selectAll().where('action', '=', 'email').execute();
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ entity: 'billing_note', record_id: String(noteId), username: 'admin' });
    expect(log[0]!.message).toContain('buyer@example.com');
  });

  it('needs the email flag', async () => {
    const printer = await c.staff('no_email', { billing_note: { view: true, print: true } });
    expectError(await c.call('POST', `/api/billing_note/${noteId}/email`, printer.headers, { to: 'buyer@example.com' }), 403, 'FORBIDDEN');
    const mailer = await c.staff('mailer', { billing_note: { view: true, email: true } });
    expect((await c.call('POST', `/api/billing_note/${noteId}/email`, mailer.headers, { to: 'buyer@example.com' })).statusCode).toBe(200);
  });

  it('keeps portal accounts to their own documents and away from email', async () => {
    const portal = await c.customerUser(mine);
    expectError(await c.call('POST', `/api/billing_note/${otherNote}/email`, portal.headers, { to: 'x@example.com' }), 404, 'NOT_FOUND');
    expectError(await c.call('POST', `/api/billing_note/${noteId}/email`, portal.headers, { to: 'x@example.com' }), 403, 'FORBIDDEN');
  });

  it('checks the recipients: required, valid, at most 320 characters each, at most 20 in all', async () => {
    const before = sink.messages.length;
    const send = (body: unknown) => c.call('POST', `/api/billing_note/${noteId}/email`, c.admin, body);
    expectError(await send({}), 400, 'VALIDATION_FAILED');
    expectError(await send({ to: 'not-an-address' }), 400, 'VALIDATION_FAILED');
    expectError(await send({ to: `${'a'.repeat(310)}@example.com` }), 400, 'VALIDATION_FAILED');
    expectError(await send({ to: Array.from({ length: 15 }, (_, i) => `to${i}@example.com`), cc: Array.from({ length: 6 }, (_, i) => `cc${i}@example.com`) }), 400, 'VALIDATION_FAILED');
    expectError(await send({ to: 'a@example.com', subject: 'hi\r\nBcc: evil@example.com' }), 400, 'VALIDATION_FAILED');
    expectError(await send({ to: 'a@example.com', bcc: 'evil@example.com' }), 400, 'UNKNOWN_FIELD');
    expect(sink.messages.length).toBe(before);
    const twenty = await send({ to: Array.from({ length: 20 }, (_, i) => `to${i}@example.com`) });
    expect(twenty.statusCode, twenty.body).toBe(200);
  });
});
