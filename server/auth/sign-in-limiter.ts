/**
 * Counts failed sign-ins per IP+username and per IP in a sliding window.
 * In memory by default; with Redis every instance counts in the same place.
 */
export interface SignInLimits {
  /** Seconds until the next attempt is allowed, or 0 when it may go ahead. */
  retryAfter(ip: string, username: string): Promise<number>;
  fail(ip: string, username: string): Promise<void>;
  succeed(ip: string, username: string): Promise<void>;
}

export interface LimiterSettings {
  perAccount: number;
  perIp: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: LimiterSettings = { perAccount: 5, perIp: 30, windowMs: 15 * 60 * 1000 };

function keys(ip: string, username: string, s: LimiterSettings): [string, number][] {
  return [[`a:${ip}:${username.toLowerCase()}`, s.perAccount], [`i:${ip}`, s.perIp]];
}

/** The wait until the oldest of the last `limit` failures leaves the window. */
function waitFor(sortedTimes: number[], limit: number, s: LimiterSettings, now: number): number {
  if (sortedTimes.length < limit) return 0;
  return Math.max(0, Math.ceil((sortedTimes[sortedTimes.length - limit]! + s.windowMs - now) / 1000));
}

export class MemorySignInLimiter implements SignInLimits {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly s: LimiterSettings = DEFAULT_LIMITS) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.s.windowMs);
    if (list.length) this.failures.set(key, list); else this.failures.delete(key);
    return list;
  }

  async retryAfter(ip: string, username: string, now = Date.now()): Promise<number> {
    return Math.max(...keys(ip, username, this.s).map(([key, limit]) => waitFor(this.recent(key, now), limit, this.s, now)));
  }

  async fail(ip: string, username: string, now = Date.now()): Promise<void> {
    for (const [key] of keys(ip, username, this.s)) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  async succeed(ip: string, username: string): Promise<void> {
    this.failures.delete(keys(ip, username, this.s)[0]![0]);
  }
}

export interface RedisCommands {
  sendCommand(args: string[]): Promise<unknown>;
}

/** ZRANGE … WITHSCORES answers [[member, score], …] over RESP3 and [member, score, …] over RESP2. */
function scoresOf(reply: unknown): number[] {
  if (!Array.isArray(reply)) return [];
  if (reply.every((x) => Array.isArray(x))) return reply.map((x) => Number((x as unknown[])[1]));
  return reply.filter((_, i) => i % 2 === 1).map(Number);
}

/** Failures as sorted sets in Redis (score = time), shared by every instance of a deployment. */
export class RedisSignInLimiter implements SignInLimits {
  constructor(private readonly redis: RedisCommands, private readonly prefix: string, private readonly s: LimiterSettings = DEFAULT_LIMITS) {}

  private key(k: string): string {
    return `${this.prefix}:signin:${k}`;
  }

  async retryAfter(ip: string, username: string, now = Date.now()): Promise<number> {
    let wait = 0;
    for (const [k, limit] of keys(ip, username, this.s)) {
      const key = this.key(k);
      await this.redis.sendCommand(['ZREMRANGEBYSCORE', key, '-inf', String(now - this.s.windowMs)]);
      const times = scoresOf(await this.redis.sendCommand(['ZRANGE', key, '0', '-1', 'WITHSCORES']));
      wait = Math.max(wait, waitFor(times, limit, this.s, now));
    }
    return wait;
  }

  async fail(ip: string, username: string, now = Date.now()): Promise<void> {
    for (const [k] of keys(ip, username, this.s)) {
      const key = this.key(k);
      await this.redis.sendCommand(['ZADD', key, String(now), `${now}:${Math.random().toString(36).slice(2)}`]);
      await this.redis.sendCommand(['PEXPIRE', key, String(this.s.windowMs)]);
    }
  }

  async succeed(ip: string, username: string): Promise<void> {
    await this.redis.sendCommand(['DEL', this.key(keys(ip, username, this.s)[0]![0])]);
  }
}
