import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import { LogDestination } from './log-destination.ts';
import { lazyChildLoggerFactory } from './lazy-child-logger.ts';

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
 * destination it writes to stdout, each event-loop turn's lines together (log-destination.ts),
 * and what is waiting when the process exits is written then.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const opts = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } };
  if (destination) return pino(opts, destination);
  const stdout = new LogDestination(1);
  process.on('exit', () => stdout.flushSync());
  return pino(opts, stdout);
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

/** Fastify's options for logging, request ids and shutdown; the logger from what buildApp was given (options, a ready logger, or nothing). */
export function opsServerOptions(logger: FastifyServerOptions['logger'] | FastifyBaseLogger | undefined): Pick<FastifyServerOptions, 'logger' | 'loggerInstance' | 'genReqId' | 'requestIdHeader' | 'logController' | 'childLoggerFactory' | 'return503OnClosing' | 'forceCloseConnections'> {
  // one line per request (written by server/ops/ops-routes.ts when it is answered) instead of Fastify's two;
  // during a shutdown, requests on connections already open are still served (and their connection then
  // closed, server/ops/ops-routes.ts) rather than refused with 503; idle connections are closed after a grace
  // period there too, not at once: a connection accepted a moment ago may not have sent its request yet;
  // a request's own logger is made only if it logs (lazy-child-logger.ts)
  const base = { genReqId, requestIdHeader: false as const, logController: new LogController({ disableRequestLogging: true }), childLoggerFactory: lazyChildLoggerFactory, return503OnClosing: false, forceCloseConnections: false };
  if (logger && typeof logger === 'object' && typeof (logger as FastifyBaseLogger).child === 'function') return { ...base, loggerInstance: logger as FastifyBaseLogger };
  if (logger && typeof logger === 'object') return { ...base, logger: { ...logger, redact: { paths: REDACT_PATHS, censor: '[redacted]' } } as never };
  return { ...base, logger: logger ?? false } as never;
}
