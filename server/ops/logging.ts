import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';

/**
 * What never reaches a log line. Fastify's request serializer logs method,
 * URL, host and address only (no headers, no bodies); these paths cover
 * anything a route or plugin might pass to the logger besides, at any depth
 * pino's redact can express.
 */
export const REDACT_PATHS = [
  'password', 'new_password', 'old_password', 'current_password', 'token', 'id_token', 'jwtSecret', 'secret', 'authorization', 'cookie',
  '*.password', '*.new_password', '*.old_password', '*.current_password', '*.token', '*.id_token', '*.jwtSecret', '*.secret', '*.authorization', '*.cookie',
  'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-api-key"]', 'req.headers["x-access-token"]', 'res.headers["set-cookie"]',
  'body.password', 'body.new_password', 'body.token', 'headers.authorization', 'headers["x-access-token"]', 'headers.cookie',
];

/**
 * The server's JSON logger: one object per line, secrets replaced by "[redacted]". Without a
 * destination it writes each line to stdout synchronously, so a kill never loses the last lines.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const opts = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } };
  return pino(opts, destination ?? pino.destination({ dest: 1, sync: true }));
}

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * A request id for every request: the one a reverse proxy sent in
 * x-request-id when it looks like an id, otherwise a fresh UUID. Fastify puts
 * it on every line the request logs (reqId), and the ops hooks send it back.
 */
export function genReqId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

type LogArgs = Parameters<FastifyBaseLogger['info']>;

/**
 * A request's logger, made only when the request logs something. Fastify makes a child logger for
 * every request (its bindings written out to JSON each time); most requests never log through it:
 * the request line is written by the ops hook on a logger of its own (server/ops/ops-routes.ts).
 */
class LazyRequestLogger {
  private made: FastifyBaseLogger | null = null;
  constructor(private readonly parent: FastifyBaseLogger, private readonly bindings: Record<string, unknown>, private readonly opts: Record<string, unknown>) {}
  private get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.opts));
  }
  get level(): string { return (this.opts.level as string | undefined) ?? this.parent.level; }
  set level(level: string) { this.real.level = level; }
  fatal(...a: LogArgs): void { this.real.fatal(...a); }
  error(...a: LogArgs): void { this.real.error(...a); }
  warn(...a: LogArgs): void { this.real.warn(...a); }
  info(...a: LogArgs): void { this.real.info(...a); }
  debug(...a: LogArgs): void { this.real.debug(...a); }
  trace(...a: LogArgs): void { this.real.trace(...a); }
  silent(...a: LogArgs): void { this.real.silent(...a); }
  child(...a: Parameters<FastifyBaseLogger['child']>): FastifyBaseLogger { return this.real.child(...a); }
}

const lazyRequestLogger = (logger: FastifyBaseLogger, bindings: Record<string, unknown>, opts: unknown): FastifyBaseLogger => new LazyRequestLogger(logger, bindings, (opts ?? {}) as Record<string, unknown>) as unknown as FastifyBaseLogger;

/** Fastify's options for logging, request ids and shutdown; the logger from what buildApp was given (options, a ready logger, or nothing). */
export function opsServerOptions(logger: FastifyServerOptions['logger'] | FastifyBaseLogger | undefined): Pick<FastifyServerOptions, 'logger' | 'loggerInstance' | 'genReqId' | 'requestIdHeader' | 'logController' | 'return503OnClosing' | 'forceCloseConnections' | 'childLoggerFactory'> {
  // one line per request (written by server/ops/ops-routes.ts when it is answered) instead of Fastify's two;
  // during a shutdown, requests on connections already open are still served (and their connection then
  // closed, server/ops/ops-routes.ts) rather than refused with 503; idle connections are closed after a grace
  // period there too, not at once: a connection accepted a moment ago may not have sent its request yet
  const base = { genReqId, requestIdHeader: false as const, logController: new LogController({ disableRequestLogging: true }), return503OnClosing: false, forceCloseConnections: false };
  // without a logger Fastify makes no request logger at all, as long as its own factory is kept
  if (logger && typeof logger === 'object' && typeof (logger as FastifyBaseLogger).child === 'function') return { ...base, childLoggerFactory: lazyRequestLogger, loggerInstance: logger as FastifyBaseLogger };
  if (logger && typeof logger === 'object') return { ...base, childLoggerFactory: lazyRequestLogger, logger: { ...logger, redact: { paths: REDACT_PATHS, censor: '[redacted]' } } as never };
  if (logger === true) return { ...base, childLoggerFactory: lazyRequestLogger, logger: true } as never;
  return { ...base, logger: logger ?? false } as never;
}
