/**
 * A Chromium CPU profile of one screen's cold load (signed in, new context), summed by function:
 * where the main thread goes between the navigation and the first row.
 * Usage: npx tsx tests/bench/web-profile.ts /stock_balance_all /product/1 ...
 * Needs a production build (npm run build). Writes /tmp/web-profile-<n>.cpuprofile.
 */
import { writeFileSync } from 'node:fs';
import { startWebBench } from './web-support.ts';

interface TraceEvent { name: string; ts: number; dur?: number; ph: string; pid: number; tid: number; args?: { data?: Record<string, unknown> } }

/** The main thread's tasks of 20 ms or more, and the requests, on one clock from the navigation. */
function printTrace({ traceEvents }: { traceEvents: TraceEvent[] }, origin: string): void {
  const ours = (u: unknown) => typeof u === 'string' && u.startsWith(origin);
  const nav = traceEvents.find((e) => e.name === 'ResourceSendRequest' && ours(e.args?.data?.url));
  if (!nav) return;
  const t0 = nav.ts;
  const script = traceEvents.find((e) => e.name === 'EvaluateScript' && ours(e.args?.data?.url)) ?? traceEvents.find((e) => e.name === 'v8.evaluateModule');
  const mainPid = script?.pid;
  const ids = new Map<string, string>();
  const ms = (ts: number) => ((ts - t0) / 1000).toFixed(0).padStart(5);
  const lines: [number, string][] = [];
  for (const e of traceEvents) {
    if (e.ts < t0) continue;
    const d = e.args?.data ?? {};
    if (e.name === 'ResourceSendRequest' && ours(d.url)) { ids.set(String(d.requestId), String(d.url).slice(origin.length)); lines.push([e.ts, `req  ${String(d.url).slice(origin.length)}`]); }
    if (e.name === 'ResourceFinish' && ids.has(String(d.requestId))) lines.push([e.ts, `done ${ids.get(String(d.requestId))}`]);
    if (e.pid === mainPid && e.ph === 'X' && (e.dur ?? 0) >= 15_000 && e.name !== 'ThreadControllerImpl::RunTask') {
      lines.push([e.ts, `  ${e.name} ${((e.dur ?? 0) / 1000).toFixed(0)} ms ${String(d.functionName ?? '')} ${String(d.url ?? '').replace(/.*\//, '')}:${String(d.lineNumber ?? '')}:${String(d.columnNumber ?? '')}`]);
    }
  }
  for (const [ts, text] of lines.sort((a, b) => a[0] - b[0])) console.log(`${ms(ts)}  ${text}`);
}

const paths = process.argv.slice(2);
const bench = await startWebBench();
try {
  for (const [n, path] of paths.entries()) {
    const context = await bench.browser.newContext({ storageState: bench.storage });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
    await bench.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    const marks: string[] = [];
    page.on('request', (r) => { if (r.url().includes('/api/')) marks.push(`req ${r.url().replace(bench.url, '')}`); });
    page.on('requestfinished', (r) => { if (r.url().includes('/api/')) marks.push(`done ${r.url().replace(bench.url, '')}`); });
    await page.goto(`${bench.url}${path}`, { waitUntil: 'commit' });
    await page.locator(bench.firstRowSelector).first().waitFor({ timeout: 20_000 });
    const { profile } = await cdp.send('Profiler.stop');
    printTrace(JSON.parse((await bench.browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] }, bench.url);
    const file = `/tmp/web-profile-${n}.cpuprofile`;
    writeFileSync(file, JSON.stringify(profile));
    const nodes = new Map(profile.nodes.map((x) => [x.id, x]));
    const self = new Map<string, number>();
    profile.samples!.forEach((id, i) => {
      const f = nodes.get(id)!.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.replace(/.*\//, '')}:${f.lineNumber}:${f.columnNumber}`;
      self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas![i] ?? 0) / 1000);
    });
    console.log(`\n${path}: ${file}`);
    for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
    await context.close();
  }
} finally {
  await bench.close();
}
