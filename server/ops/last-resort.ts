import { isDatabaseUnavailable } from '../db/postgres/database-reachability.ts';

interface Log {
  error(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

/**
 * Ids of the requests being served now (kept by server/ops/ops-routes.ts). An uncaught error carries no
 * request of its own, so its log line names the requests in flight when it happened: their lines share the ids.
 */
export const requestsInFlight = new Set<string>();
const SHOWN = 20;

/** Errors of a connection to a dependency (Redis, PostgreSQL, SMTP, S3, a socket): the emitter is done with them, nothing is half-changed. */
const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);
const CONNECTION_NAMES = /^(SocketClosedUnexpectedlyError|ConnectionTimeoutError|ClientClosedError|ClientOfflineError|ReconnectStrategyError)$/;

export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  // PostgreSQL ending a connection (a restart: 57P01), or any other sign the database went away
  if (isDatabaseUnavailable(err)) return true;
  return (typeof e.code === 'string' && CONNECTION_ERRORS.has(e.code)) || (typeof e.name === 'string' && CONNECTION_NAMES.test(e.name))
    || (typeof e.message === 'string' && /Connection terminated unexpectedly/.test(e.message));
}

function described(err: unknown): object {
  const e = err as { message?: unknown; name?: unknown; code?: unknown; stack?: unknown } | null;
  return { type: e?.name, message: typeof e?.message === 'string' ? e.message : String(err), code: e?.code, stack: e?.stack };
}

/**
 * The last resort of issue 36. A promise rejected with nobody waiting for it is logged and the server
 * goes on: nothing was left half done by it. An exception nothing caught is logged too; when it came
 * from a dependency's connection (an 'error' event nobody listened to) the server goes on, since every
 * client reconnects by itself; anything else may have left the process in a state nobody can vouch for,
 * so the server stops as on SIGTERM (the requests in flight are finished) and exits 1, and the
 * supervisor (npm start, SERVER_WORKERS' primary, systemd, Kubernetes) starts a fresh one.
 */
export function installLastResort(log: Log, stop: (reason: string) => void): void {
  const inFlight = () => [...requestsInFlight].slice(0, SHOWN);
  process.on('unhandledRejection', (reason) => {
    log.error({ err: described(reason), reqIds: inFlight() }, 'unhandled promise rejection (logged; the server goes on)');
  });
  process.on('uncaughtException', (err, origin) => {
    if (isConnectionError(err)) {
      log.error({ err: described(err), origin, reqIds: inFlight() }, 'uncaught connection error of a dependency (logged; the server goes on, its client reconnects)');
      return;
    }
    log.fatal({ err: described(err), origin, reqIds: inFlight() }, 'uncaught exception: the process can no longer be trusted; stopping gracefully and exiting 1 so it is restarted');
    stop('uncaughtException');
  });
}
