import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';
import type { RedisClientType } from 'redis';
import { closeRedis, openRedis } from './redis-link.ts';
import { requestsInFlight } from './last-resort.ts';
import { sql } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { schemaHash } from '../db/schema-sync.ts';
import { refreshOverrides } from '../meta/schema-overrides.ts';

export interface OpsOptions {
  db: Database;
  registry: SchemaRegistry;
  redisUrl?: string;
  /** How often each instance looks for a newer runtime-override version (ms); another instance's change applies within this. */
  overridePollMs?: number;
  /** Whether the instance's other Redis connections (the realtime publisher and subscriber) are up too. */
  redisLinked?: () => boolean;
}

/** JSON answers smaller than this go out as they are: compressing them costs more than it saves. */
export const COMPRESS_THRESHOLD = 1024;
/**
 * Answers up to this size are compressed in one synchronous call. A per-answer zlib stream
 * (the plugin's default above 8 KB on 2 cores) cost about 600 µs of CPU for a 16 KB list,
 * against about 80 µs in one call (docs/performance.md, Load); only larger answers (exports,
 * long pages) are streamed, so the event loop is never held for long.
 */
export const COMPRESS_SYNC_MAX = 128 * 1024;
/**
 * Brotli quality 2 with a 256 KB window for JSON compressed on the fly: on the load mix's
 * answers about half the CPU of quality 4 for 9 % more bytes (still about a quarter of the
 * raw JSON). Built web assets are compressed at build time at quality 11 and are not affected.
 */
export const BROTLI_ON_THE_FLY = { [zlibConstants.BROTLI_PARAM_QUALITY]: 2, [zlibConstants.BROTLI_PARAM_LGWIN]: 18 };
const READY_TIMEOUT_MS = 2000;
/** At shutdown, how long a connection without a request in progress may stay open. */
const IDLE_GRACE_MS = 1000;

/** The 503 of /api/ready, naming what is missing ('database', 'schema', 'redis', 'shutdown') so an operator sees which dependency is down. */
const notReady = (failing: string[]) => ({ success: false, error: { code: 'NOT_READY', message: 'The server is not ready to serve requests', details: { failing } } });

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([p, new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error('timed out')), ms); })]).finally(() => clearTimeout(timer));
}

/**
 * What an operator needs from every instance: compression of answers, the
 * request id sent back on every answer, liveness and readiness probes, and
 * runtime schema overrides picked up from the database (so a change made
 * on one instance applies on all within `overridePollMs`).
 */
export async function installOps(app: FastifyInstance, opts: OpsOptions): Promise<void> {
  // built web assets arrive precompressed (@fastify/static preCompressed); this covers JSON and the rest
  await app.register(compress, {
    global: true, threshold: COMPRESS_THRESHOLD, encodings: ['br', 'gzip'],
    syncThreshold: COMPRESS_SYNC_MAX, brotliOptions: { params: BROTLI_ON_THE_FLY },
  });

  let closing = false;
  // the requests being served, named by the last-resort handler's log line (server/ops/last-resort.ts)
  app.addHook('onRequest', (request, _reply, done) => {
    if (requestsInFlight.size < 10_000) requestsInFlight.add(request.id);
    done();
  });
  app.addHook('onRequestAbort', (request, done) => { requestsInFlight.delete(request.id); done(); });
  // callback hooks here: an async hook costs every request a promise and a turn of the microtask queue
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    // shutting down: answer, then close the connection, so the client sends its next request elsewhere
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  // the request line: one per answered request, with its request id (Fastify's own two lines are off).
  // The URL is logged without its query string beyond 300 characters; no headers, no bodies.
  // Its fields are fixed and none is a path the redaction names (a URL is one string), so it is
  // written without pino's redaction pass, which took about three quarters of the line's cost
  // (about 7 µs of 9.5 µs). Every other line, the request's own logger included, is still redacted.
  const requestLines = app.log.child({}, { redact: { paths: [], censor: '[redacted]' } });
  app.addHook('onResponse', (request, reply, done) => {
    requestsInFlight.delete(request.id);
    // probes (logLevel 'warn') log a line only when they fail
    const level = reply.statusCode >= 500 ? 'error' : request.routeOptions.logLevel === 'warn' ? null : 'info';
    if (level) requestLines[level]({ reqId: request.id, method: request.method, url: request.url.slice(0, 300), statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime * 10) / 10, ip: request.ip }, 'request completed');
    done();
  });

  let idleCloser: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    // kept-alive connections with no request in progress are closed after a grace period, then every
    // 250 ms until none is left; a request already sent on one still gets its answer first
    idleCloser = setTimeout(() => {
      app.server.closeIdleConnections();
      idleCloser = setInterval(() => app.server.closeIdleConnections(), 250);
      idleCloser.unref();
    }, IDLE_GRACE_MS);
    idleCloser.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(idleCloser);
    clearInterval(idleCloser);
  });

  let redis: RedisClientType | null = null;
  if (opts.redisUrl) {
    // its own connection, so a probe never waits behind the adapter's or the limiter's traffic;
    // commands fail at once while Redis is down, so the probe answers 503 naming it without waiting
    redis = await openRedis(opts.redisUrl, { role: 'readiness probe', log: app.log, failFast: true });
    app.addHook('onClose', async () => { if (redis) await closeRedis(redis); });
  }

  const expectedHash = schemaHash(opts.registry.fileSchemas());
  /** What is not there: 'database', 'schema' (not synced with this instance's files), 'redis'; each check has READY_TIMEOUT_MS. */
  const failing = async (log: FastifyBaseLogger): Promise<string[]> => {
    const database = async () => {
      await sql`select 1`.execute(opts.db.kysely);
      const row = await opts.db.kysely.selectFrom('schema_state').select('value').where('key', '=', 'hash').executeTakeFirst();
      return row?.value === expectedHash ? null : 'schema';
    };
    const link = async () => {
      if (redis && (!redis.isReady || (await redis.ping()) !== 'PONG')) throw new Error('not connected');
      // realtime's own connections reconnect on their own schedule: ready once events cross instances again
      if (redis && opts.redisLinked && !opts.redisLinked()) throw new Error('the realtime connections are not back yet');
    };
    const [d, r] = await Promise.allSettled([within(database(), READY_TIMEOUT_MS), within(link(), READY_TIMEOUT_MS)]);
    const out: string[] = [];
    if (d.status === 'rejected') out.push('database'); else if (d.value) out.push(d.value);
    if (r.status === 'rejected') out.push('redis');
    if (out.length) log.warn({ failing: out, err: { message: [d, r].map((x) => (x.status === 'rejected' ? (x.reason as Error).message : '')).filter(Boolean).join('; ') } }, 'readiness check failed');
    return out;
  };

  // liveness: the process answers; nothing else is checked, so a slow database never gets it restarted
  app.get('/api/health', { schema: { hide: true }, logLevel: 'warn' }, async () => ({ success: true }));
  // readiness: database reachable, schema synced, Redis reachable when configured; the answer names what is missing
  app.get('/api/ready', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const missing = closing ? ['shutdown'] : await failing(request.log);
    if (missing.length) return reply.status(503).header('cache-control', 'no-store').send(notReady(missing));
    return reply.header('cache-control', 'no-store').send({ success: true });
  });

  const pollMs = opts.overridePollMs ?? 500;
  let polling = false;
  const timer = setInterval(() => {
    if (polling) return;
    polling = true;
    refreshOverrides(opts.db, opts.registry)
      .catch((err: unknown) => app.log.warn({ err: { message: (err as Error).message } }, 'schema override refresh failed'))
      .finally(() => { polling = false; });
  }, pollMs);
  timer.unref();
  app.addHook('preClose', async () => clearInterval(timer));
}
