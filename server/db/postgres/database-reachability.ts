import pg from 'pg';

/** SQLSTATEs of a database that is gone or going: class 08 (connection exception), shutdown, starting up, too many connections. */
const UNAVAILABLE_STATES = /^(08...|57P01|57P02|57P03|53300)$/;
const NET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// what pg says when a connection it held died, or a connect attempt timed out
const PG_MESSAGES = /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout/;

/**
 * Whether PostgreSQL cancelled a statement that ran past statement_timeout (57014) or waited past lock_timeout
 * (55P03): the statement's transaction is rolled back, the connection is fine, and the request answers 503.
 */
export function isDatabaseTimeout(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '57014' || code === '55P03';
}

/**
 * Whether PostgreSQL ended the statement's transaction to resolve a conflict with another one: a deadlock (40P01)
 * or a serialization failure (40001). It was rolled back whole; the same request sent again normally succeeds.
 */
export function isTransactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Whether an error means the database cannot be reached (stopped, restarting, network gone), as opposed
 * to a statement it refused: such a request answers 503 DATABASE_UNAVAILABLE, not 500 (issue 36).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof e.code === 'string' && (NET_CODES.has(e.code) || UNAVAILABLE_STATES.test(e.code))) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true;
  // a host name with several addresses fails with one error per address
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseUnavailable)) return true;
  return e.cause !== undefined && e.cause !== err && isDatabaseUnavailable(e.cause);
}

/** How long one connection attempt may take: a database host that drops packets would otherwise hold a request for minutes. */
export const CONNECT_ATTEMPT_MS = 3000;

/**
 * A pool whose checkouts ride out a database restart: a connection refused (the server stopping,
 * starting, or not there) is tried again with backoff for up to `waitMs`, then the error goes to the
 * request, which answers 503 DATABASE_UNAVAILABLE. Only the connect is retried, never a statement:
 * a statement whose connection died may or may not have run, and its transaction is rolled back by
 * PostgreSQL, so nothing is left half written.
 */
export function patientPool(config: pg.PoolConfig, waitMs: number): pg.Pool {
  // the attempt's own limit is set on each client, not the pool: the pool's limit would also cut short a
  // wait for a free connection under load, which is not an outage
  class BoundedClient extends pg.Client {
    constructor(c?: pg.ClientConfig) { super({ ...c, connectionTimeoutMillis: CONNECT_ATTEMPT_MS }); }
  }
  const pool = new pg.Pool({ ...config, Client: BoundedClient, keepAlive: true, keepAliveInitialDelayMillis: 30_000 });
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  // the pool listens for a client's 'error' only while it is idle: a client held by a request when the server
  // ends its connection (a restart) would emit 'error' with no listener, which Node throws. Its query fails anyway
  // (503); the pool drops it at release or, at the latest, at the next checkout (below)
  const listened = new WeakSet<pg.PoolClient>();
  const listen = (client: pg.PoolClient) => {
    if (listened.has(client)) return;
    listened.add(client);
    client.on('error', () => undefined);
  };
  const patient = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + waitMs;
    for (let attempt = 0; ; attempt++) {
      try {
        const client = await connect();
        // an idle connection the server ended (a restart) can be handed out before the pool saw it go: nothing was
        // sent on it yet, so drop it and take another rather than fail the request
        const state = client as unknown as { _queryable?: boolean; _ending?: boolean };
        if (state._queryable === false || state._ending) {
          client.release(new Error('connection ended while idle'));
          throw Object.assign(new Error('Connection terminated while idle'), { code: '08006' });
        }
        listen(client);
        return client;
      } catch (err) {
        const delay = Math.min(100 * 2 ** attempt, 1000);
        if (!isDatabaseUnavailable(err) || Date.now() + delay >= deadline) throw err;
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  };
  // only the promise form (Kysely's); the callback form (pool.query) is left as it was
  pool.connect = ((cb?: unknown) => (typeof cb === 'function' ? (connect as (cb: unknown) => void)(cb) : patient())) as typeof pool.connect;
  return pool;
}
