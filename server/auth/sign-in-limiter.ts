/**
 * Counts failed sign-ins per IP+username and per IP in a sliding window.
 * In memory, so each server instance counts on its own.
 */
export class SignInLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly perAccount = 5,
    private readonly perIp = 30,
    private readonly windowMs = 15 * 60 * 1000,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.failures.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.failures.set(key, list); else this.failures.delete(key);
    return list;
  }

  /** Seconds until the next attempt is allowed, or 0 when it may go ahead. */
  retryAfter(ip: string, username: string, now = Date.now()): number {
    const checks: [string, number][] = [[`a:${ip}:${username.toLowerCase()}`, this.perAccount], [`i:${ip}`, this.perIp]];
    let wait = 0;
    for (const [key, limit] of checks) {
      const list = this.recent(key, now);
      if (list.length >= limit) wait = Math.max(wait, Math.ceil((list[list.length - limit]! + this.windowMs - now) / 1000));
    }
    return wait;
  }

  fail(ip: string, username: string, now = Date.now()): void {
    for (const key of [`a:${ip}:${username.toLowerCase()}`, `i:${ip}`]) {
      const list = this.recent(key, now);
      list.push(now);
      this.failures.set(key, list);
    }
  }

  succeed(ip: string, username: string): void {
    this.failures.delete(`a:${ip}:${username.toLowerCase()}`);
  }
}
