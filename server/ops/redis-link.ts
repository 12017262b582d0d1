import type { RedisClientType } from 'redis';

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface RedisLinkOptions {
  /** Named in every log line about this connection: "publisher", "readiness probe"… */
  role: string;
  log: Log;
  /**
   * Commands sent while the connection is down fail at once (ClientOfflineError) instead of waiting in
   * memory for Redis to return: a sign-in or a probe must not hang for the length of an outage.
   */
  failFast?: boolean;
  /** Called when the connection is lost and when it is back (ready again). */
  onChange?: (up: boolean) => void;
}

/** How long a start waits for Redis before it goes on without it (the client keeps trying in the background). */
export const REDIS_START_WAIT_MS = 3000;

/** 100 ms doubling to 3 s, with a little jitter so instances do not reconnect in step; never gives up. */
export function redisBackoff(retries: number): number {
  return Math.min(100 * 2 ** Math.min(retries, 5), 3000) + Math.floor(Math.random() * 100);
}

/**
 * A Redis client that can never take the process down: an 'error' event without a listener is thrown
 * by Node (issue 36: a 4-second Redis stop killed the server), so every client made here has one, and
 * reconnects with backoff for as long as the outage lasts. One line when the connection is lost, one
 * when it is back, not one per retry.
 */
export async function openRedis(url: string, opts: RedisLinkOptions): Promise<RedisClientType> {
  const { createClient } = await import('redis');
  const client = createClient({ url, disableOfflineQueue: opts.failFast ?? false, socket: { reconnectStrategy: redisBackoff, connectTimeout: 2000 } }) as RedisClientType;
  watch(client, opts);
  await connectBounded(client, opts);
  return client;
}

/** The same listeners for a client made elsewhere (a duplicate). */
export function watch(client: RedisClientType, opts: RedisLinkOptions): void {
  let down = false;
  client.on('error', (err: Error) => {
    if (down) return;
    down = true;
    opts.log.warn({ redis: opts.role, err: { message: err.message } }, `redis (${opts.role}) connection lost; reconnecting`);
    opts.onChange?.(false);
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    opts.log.info({ redis: opts.role }, `redis (${opts.role}) connection is back`);
    opts.onChange?.(true);
  });
}

/**
 * Connects, waiting for the first attempt's outcome (at most REDIS_START_WAIT_MS): an instance started
 * while Redis is down serves what needs no Redis (its readiness says 503 naming redis) and links up when
 * Redis comes, as the client keeps trying.
 */
export async function connectBounded(client: RedisClientType, opts: RedisLinkOptions, ms = REDIS_START_WAIT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let failed: (() => void) | undefined;
  const outcome = await Promise.race([
    client.connect().then(() => 'ready' as const, () => 'failed' as const),
    new Promise<'failed'>((resolve) => { failed = () => resolve('failed'); client.once('error', failed); }),
    new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), ms); }),
  ]);
  clearTimeout(timer);
  if (failed) client.off('error', failed);
  if (outcome !== 'ready') opts.log.warn({ redis: opts.role }, `redis (${opts.role}) not reachable at start; going on without it, still trying`);
}

/** Closes politely when connected; a client still trying to reach Redis is stopped at once (quit would wait for it). */
export async function closeRedis(client: RedisClientType): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => { timer = setTimeout(resolve, 1000); });
    await Promise.race([client.quit().catch(() => undefined), late]);
    clearTimeout(timer);
    if (!client.isOpen) return;
  }
  client.destroy();
}
