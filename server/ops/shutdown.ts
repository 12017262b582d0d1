import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface Stoppable {
  app: FastifyInstance;
  db: { close(): Promise<void> };
}

/**
 * On SIGTERM or SIGINT: stop accepting connections, let the requests in
 * flight finish (Fastify answers new requests on kept-alive connections 503
 * with `connection: close`, and /api/ready turns 503 at once), close the
 * sockets with a reconnect hint (server/realtime/socket-server.ts), close the
 * database, exit 0. Requests still running after `timeoutMs` have their
 * connections closed, and the process exits 1.
 */
export function stopOnSignals(s: Stoppable, log: FastifyBaseLogger, timeoutMs: number): (reason: string) => void {
  let stopping = false;
  /** `failed`: the stop was not asked for (server/ops/last-resort.ts): exit 1 however cleanly it goes, so a supervisor restarts it. */
  const stopAs = (signal: string, failed: boolean) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, timeoutMs }, 'shutting down: refusing new connections, finishing the requests in flight');
    let clean = !failed;
    const force = setTimeout(() => {
      clean = false;
      log.warn({ timeoutMs }, 'requests still running at the shutdown limit; closing their connections');
      s.app.server.closeAllConnections();
    }, timeoutMs);
    force.unref();
    // last resort, should a close hook hang
    setTimeout(() => { log.error('shutdown did not finish; exiting'); process.exit(1); }, timeoutMs + 5000).unref();
    void (async () => {
      try {
        await s.app.close();
        await s.db.close();
        clearTimeout(force);
        log.info('stopped');
        process.exitCode = clean ? 0 : 1;
      } catch (err) {
        log.error({ err }, 'shutdown failed');
        process.exitCode = 1;
      }
      // pino writes synchronously to stdout; leave once the last line is out
      setImmediate(() => process.exit());
    })();
  };
  // a signal listener is called with the signal's number too: never pass it on as `failed`
  process.once('SIGTERM', (signal) => stopAs(signal, false));
  process.once('SIGINT', (signal) => stopAs(signal, false));
  return (reason) => stopAs(reason, true);
}
