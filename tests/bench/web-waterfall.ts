/**
 * The request waterfall of one screen's cold load, from the page's own Resource Timing (no tracer or profiler
 * attached, so the timings are the page's): each request's start, first byte and end on the navigation's clock,
 * the first row painted, and the main thread's long tasks (≥ 50 ms) before it. Less noisy than the wall clock on a
 * shared machine: which requests wait for which, and how many stand in series before the first row.
 * Usage: npx tsx tests/bench/web-waterfall.ts /product /product/1 ...   (WEB_RUNS: loads per path, the last printed)
 * Needs a production build (npm run build; startWebBench builds when stale).
 */
import { startWebBench } from './web-support.ts';

interface Entry { name: string; startTime: number; requestStart: number; responseStart: number; responseEnd: number; transferSize: number; initiatorType: string }
interface Result { painted: number; entries: Entry[]; tasks: { start: number; duration: number }[] }

const runs = Number(process.env.WEB_RUNS ?? 1);
const paths = process.argv.slice(2);
const bench = await startWebBench();
try {
  for (const path of paths) {
    let last: Result | null = null;
    const painted: number[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await bench.browser.newContext({ storageState: bench.storage });
      const page = await context.newPage();
      await page.addInitScript((sel: string) => {
        const w = window as unknown as { __firstRowPainted?: number; __tasks: { start: number; duration: number }[] };
        w.__tasks = [];
        try {
          new PerformanceObserver((l) => { for (const e of l.getEntries()) w.__tasks.push({ start: e.startTime, duration: e.duration }); }).observe({ type: 'longtask', buffered: true });
        } catch { /* no long tasks */ }
        new MutationObserver((_, observer) => {
          if (!document.querySelector(sel)) return;
          observer.disconnect();
          requestAnimationFrame(() => { w.__firstRowPainted = performance.now(); });
        }).observe(document, { subtree: true, childList: true });
      }, bench.firstRowSelector);
      await page.goto(`${bench.url}${path}`, { waitUntil: 'commit' });
      await page.waitForFunction(() => (window as unknown as { __firstRowPainted?: number }).__firstRowPainted, undefined, { timeout: 20_000 });
      last = await page.evaluate(() => {
        const w = window as unknown as { __firstRowPainted: number; __tasks: { start: number; duration: number }[] };
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const res = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
        // no named function in here: tsx would wrap it in a helper the page does not have
        return {
          painted: w.__firstRowPainted, tasks: w.__tasks,
          entries: [nav, ...res].map((e) => ({ name: e.name, startTime: e.startTime, requestStart: e.requestStart, responseStart: e.responseStart, responseEnd: e.responseEnd, transferSize: e.transferSize, initiatorType: e.initiatorType })),
        };
      });
      painted.push(last.painted);
      await context.close();
    }
    const r = last!;
    console.log(`\n${path}: first row painted at ${painted.map((p) => Math.round(p)).join(', ')} ms`);
    const rows = r.entries.filter((e) => e.startTime <= r.painted).map((e) => ({ ...e, name: e.name.replace(bench.url, '') }));
    for (const e of rows.sort((a, b) => a.startTime - b.startTime)) {
      const wait = e.requestStart > 0 ? Math.round(e.requestStart - e.startTime) : 0;
      console.log(`${String(Math.round(e.startTime)).padStart(5)} → ${String(Math.round(e.responseEnd)).padStart(5)} ms  (queued ${String(wait).padStart(3)}, ttfb ${String(Math.round(e.responseStart - (e.requestStart || e.startTime))).padStart(3)}) ${(e.transferSize / 1024).toFixed(1).padStart(6)} KB  ${e.name.slice(0, 110)}`);
    }
    for (const t of r.tasks.filter((x) => x.start <= r.painted)) console.log(`  long task ${Math.round(t.start)} ms, ${Math.round(t.duration)} ms`);
  }
} finally {
  await bench.close();
}
