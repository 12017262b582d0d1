/**
 * Issue 36: the mail server dies while a document is being e-mailed, or is not there at all.
 * The answer is 503 MAIL_NOT_CONFIGURED with a Thai message naming SMTP_URL, well within
 * SHUTDOWN_TIMEOUT_MS, and nothing is recorded as sent (no `email` row in the system log).
 * A real SMTP sink (smtp-server) on a free port, stopped by the test. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo, Socket } from 'node:net';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { freePort } from './own-services.ts';

/** An SMTP sink that, once `dieOnData` is set, drops every connection as the message body starts to arrive. */
async function dyingSink() {
  const sockets = new Set<Socket>();
  const state = { dieOnData: true, received: 0 };
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false,
    onData(stream, _session, callback) {
      if (state.dieOnData) {
        // the server process going away mid-transfer: every connection cut, nothing answered
        for (const s of sockets) s.destroy();
        return;
      }
      stream.on('data', () => undefined);
      stream.on('end', () => { state.received++; callback(); });
    },
  });
  server.server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.server.address() as AddressInfo).port;
  return { url: `smtp://127.0.0.1:${port}`, state, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

describe.each(testDialects())('a dead mail server on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let sink: Awaited<ReturnType<typeof dyingSink>>;
  let noteId: number;

  beforeAll(async () => {
    sink = await dyingSink();
    t = await createTestApp(dialect, undefined, { mail: { smtpUrl: sink.url, from: 'billing@example.co.th' } });
    c = new Client(t);
    noteId = await c.billingNote(await c.customer(), await c.company());
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
  });

  const email = () => t.app.inject({ method: 'POST', url: `/api/billing_note/${noteId}/email`, headers: { ...t.headers, 'accept-language': 'th' }, payload: { to: 'buyer@example.com' } });
  const sentRows = async () => (await t.db.kysely.selectFrom('system_log').select('id').where('action', '=', 'email').execute()).length;

  it('the mail server dies during the transfer: 503 in Thai naming SMTP_URL, nothing marked as sent', async () => {
    const started = Date.now();
    const res = await email();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.code).toBe('MAIL_NOT_CONFIGURED');
    expect(res.json().error.message).toMatch(/[\u0E00-\u0E7F]/);
    expect(res.json().error.message).toContain('SMTP_URL');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await sentRows()).toBe(0);
  });

  it('no mail server at all (its port closed): 503 at once, nothing marked as sent; once it is back, mail goes out', async () => {
    const deadPort = await freePort();
    const dead = await createTestApp(dialect, undefined, { mail: { smtpUrl: `smtp://127.0.0.1:${deadPort}`, from: 'billing@example.co.th' } });
    try {
      const dc = new Client(dead);
      const id = await dc.billingNote(await dc.customer(), await dc.company());
      const started = Date.now();
      const res = await dead.app.inject({ method: 'POST', url: `/api/billing_note/${id}/email`, headers: dead.headers, payload: { to: 'buyer@example.com' } });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'MAIL_NOT_CONFIGURED', message: expect.stringContaining('could not be reached') });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await dead.db.kysely.selectFrom('system_log').select('id').where('action', '=', 'email').execute()).length).toBe(0);
    } finally {
      await dead.close();
    }
    // the sink of the first test, healthy again: the same app sends, and only now records it
    sink.state.dieOnData = false;
    const ok = await email();
    expect(ok.statusCode, ok.body).toBe(200);
    expect(sink.state.received).toBe(1);
    expect(await sentRows()).toBe(1);
  });
});
