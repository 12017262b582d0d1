/** The /test_com_socket handlers: diag:ping answers at once, diag:echo sends the text back, only through the acknowledgement. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { connectSocket, connected, listen, tokenOf } from '../support/crm-fixtures.ts';

describe('socket diagnostics', () => {
  let t: TestApp;
  let socket: Socket;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    const url = await listen(t.app);
    socket = connectSocket(url, tokenOf(t.headers));
    await connected(socket);
  });
  afterAll(async () => {
    socket?.disconnect();
    await t?.close();
  });

  it('answers a ping with the server time', async () => {
    const before = Date.now();
    const r = (await socket.timeout(3000).emitWithAck('diag:ping', {})) as { server_time: number };
    expect(r.server_time).toBeGreaterThanOrEqual(before - 1000);
  });

  it('echoes text, and refuses what is not short text', async () => {
    expect(await socket.timeout(3000).emitWithAck('diag:echo', { text: 'สวัสดี' })).toMatchObject({ ok: true, text: 'สวัสดี' });
    expect(await socket.timeout(3000).emitWithAck('diag:echo', { text: 'x'.repeat(2001) })).toMatchObject({ ok: false });
    expect(await socket.timeout(3000).emitWithAck('diag:echo', { text: 42 })).toMatchObject({ ok: false });
  });
});
