/**
 * Staff paced as people are (`npm run bench:load`, LOAD_PACE > 0): each member of staff has one
 * keep-alive connection, sends a request, reads the answer, then thinks for a random while before the
 * next: think times drawn from an exponential distribution whose mean gives `rate` requests a second,
 * so 50 people's clicks land at independent moments (a Poisson stream), not in step.
 *
 * autocannon's connectionRate, which this replaces for the paced runs, releases every connection's request
 * at the start of each second, so 50 "staff" clicked within the same millisecond every second: a burst
 * test. Each person's first request comes at a random moment of its first think time, so no two start together.
 */
import http from 'node:http';

export interface StaffRequest { method: string; path: string; headers: Record<string, string>; body?: string }
export interface StaffCallbacks {
  /** The person's next request, built from its own context (the same function autocannon's runs use). */
  setupRequest: (req: { headers?: Record<string, string> }, ctx: Record<string, unknown>) => StaffRequest;
  onResponse: (status: number, body: string, ctx: Record<string, unknown>) => void;
}
export interface StaffRun { requests: number; errors: number; non2xx: number; timeouts: number }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An exponential think time (ms) of mean 1000 / rate. */
const think = (rate: number) => (-Math.log(1 - Math.random()) * 1000) / rate;

function send(url: URL, agent: http.Agent, r: StaffRequest, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = http.request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.body ? { ...r.headers, 'content-length': Buffer.byteLength(r.body) } : r.headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.on('error', fail);
    if (r.body) req.write(r.body);
    req.end();
  });
}

/** `staff` people spread over `urls` in turn (what a round-robin balancer does), for `seconds`. */
export async function runStaff(urls: string[], staff: number, seconds: number, rate: number, cb: StaffCallbacks, timeoutMs = 10_000): Promise<StaffRun> {
  const run: StaffRun = { requests: 0, errors: 0, non2xx: 0, timeouts: 0 };
  const end = performance.now() + seconds * 1000;
  const person = async (i: number) => {
    const url = new URL(urls[i % urls.length]!);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const ctx: Record<string, unknown> = {};
    // the first click somewhere in the first think time, uniformly: people do not all start at once
    await sleep(Math.random() * (1000 / rate));
    while (performance.now() < end) {
      const r = cb.setupRequest({ headers: {} }, ctx);
      try {
        const res = await send(url, agent, r, timeoutMs);
        run.requests++;
        if (res.status >= 300) run.non2xx++;
        cb.onResponse(res.status, res.body, ctx);
      } catch (err) {
        // setupRequest counts the person's previous request as unanswered when it is called again
        if ((err as { code?: string }).code === 'TIMEOUT') run.timeouts++;
        else run.errors++;
      }
      const wait = think(rate);
      if (performance.now() + wait >= end) break;
      await sleep(wait);
    }
    agent.destroy();
  };
  await Promise.all(Array.from({ length: staff }, (_, i) => person(i)));
  return run;
}
