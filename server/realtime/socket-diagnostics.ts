import type { Server as SocketServer } from 'socket.io';

const MAX_ECHO = 2000;

/**
 * Small handlers for the /test_com_socket screen: `diag:ping` answers the
 * server time at once (the client measures the round trip), `diag:echo`
 * sends a short text back. Both answer through the acknowledgement only, to
 * the socket that asked.
 */
export function installSocketDiagnostics(io: SocketServer): void {
  io.on('connection', (socket) => {
    socket.on('diag:ping', (_payload: unknown, ack?: unknown) => {
      if (typeof ack === 'function') ack({ server_time: Date.now() });
    });
    socket.on('diag:echo', (payload: unknown, ack?: unknown) => {
      if (typeof ack !== 'function') return;
      const text = (payload as { text?: unknown } | null)?.text;
      if (typeof text !== 'string' || text.length > MAX_ECHO) ack({ ok: false, error: `text must be a string of at most ${MAX_ECHO} characters` });
      else ack({ ok: true, text, server_time: Date.now() });
    });
  });
}
