/**
 * `npm run bench:web`: what a browser receives from the production build
 * (node build/scripts/server-main.js, as `npm start` runs it), in headless Chromium.
 * A benchmark, not a test: it prints figures and PASS/MISS, and exits 0 either way.
 *
 *  - /signin: the JavaScript bytes that cross the wire (encoded body sizes,
 *    so compression counts), cold cache. Target ≤ 150 KB.
 *  - time to the first row of each kind of screen (list, record, create-from, report, dashboard; two paths each),
 *    signed in, runs of the paths interleaved, a new browser context each run, two ways:
 *    - cold: the context's first page, so nothing is cached (the first visit after a new version);
 *    - warm: the context has shown the home page and this path twice before (the browser's HTTP cache holds the
 *      code, and V8 compiles it from its code cache, which Chromium fills on a script's second load): a screen
 *      a person opens again during the day, by its address or by reloading it.
 *    Target: p90 ≤ 600 ms per kind, each way.
 *
 * WEB_RUNS (7): runs of each path (each kind's figures are over both its paths' runs).
 * WEB_KINDS: a comma list to measure only some kinds. WEB_CACHE: "cold", "warm" or "cold,warm" (the default).
 */
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { loadavg } from 'node:os';
import { startWebBench } from './web-support.ts';

const RUNS = Number(process.env.WEB_RUNS ?? 7);
const WAYS = (process.env.WEB_CACHE ?? 'cold,warm').split(',').map((w) => w.trim() === 'warm');
const log = (m: string) => console.log(`[web] ${m}`);
const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!; };

const LIST = '[data-testid=entity-list] tbody tr:not(.p-datatable-emptymessage) td';
const REPORT = '[data-testid=report-table] tbody td';
/** A record's first row: its form with the stored values in (a document's lines table rows come with it). */
const RECORD = 'form.bo-form[data-form-type=edit] input';
const CREATE_FROM = '[data-testid=create-from-documents] tbody td';

const KINDS: { kind: string; paths: string[]; selector: string }[] = [
  { kind: 'list', paths: ['/product', '/quotation'], selector: LIST },
  { kind: 'record', paths: ['/product/1', '/quotation/1'], selector: RECORD },
  { kind: 'create-from', paths: ['/receipt/billing_note', '/goods_receipt/purchase_order'], selector: CREATE_FROM },
  { kind: 'report', paths: ['/stock_balance_all', '/stock_movement'], selector: REPORT },
  { kind: 'dashboard', paths: ['/incoming_dashboard', '/transaction_dashboard'], selector: REPORT },
];

async function signinJs(browser: Browser, url: string): Promise<{ bytes: number; raw: number; files: number; encodings: string[] }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const responses: Promise<{ body: number; raw: number; enc: string }>[] = [];
    page.on('response', (res) => {
      if (!/\.m?js(\?|$)/.test(res.url())) return;
      responses.push((async () => {
        const sizes = await res.request().sizes();
        const headers = await res.allHeaders();
        return { body: sizes.responseBodySize, raw: (await res.body()).length, enc: headers['content-encoding'] ?? 'identity' };
      })());
    });
    await page.goto(`${url}/signin`, { waitUntil: 'networkidle' });
    const all = await Promise.all(responses);
    return { bytes: all.reduce((a, r) => a + r.body, 0), raw: all.reduce((a, r) => a + r.raw, 0), files: all.length, encodings: [...new Set(all.map((r) => r.enc))] };
  } finally {
    await context.close();
  }
}

/**
 * The page's own clock: from the navigation's start (performance.timeOrigin) to the first
 * frame after the first content cell entered the DOM, which is what a person sees.
 * The page reports it on its console (a CDP event): waiting through a Playwright locator
 * would compile and run Playwright's injected selector engine on the page's main thread
 * while the page loads, which a person's browser never runs (50–100 ms a page on a 2-core
 * machine, measured side by side on 2026-11-29; docs/performance.md). This waits for the next such message.
 */
function nextFirstRow(page: Page, path: string): Promise<number> {
  let timer: NodeJS.Timeout | undefined;
  const painted = new Promise<number>((resolve) => {
    const seen = (m: ConsoleMessage) => {
      const [tag, at] = m.text().split(' ');
      if (tag !== 'bo-first-row') return;
      page.off('console', seen);
      resolve(Number(at));
    };
    page.on('console', seen);
  });
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${path}: no first row within 20 s`)), 20_000); });
  return Promise.race([painted, timeout]).finally(() => clearTimeout(timer));
}

async function firstRow(browser: Browser, url: string, storage: Awaited<ReturnType<BrowserContext['storageState']>>, path: string, selector: string, warm: boolean): Promise<number> {
  const context = await browser.newContext({ storageState: storage });
  try {
    const page = await context.newPage();
    await page.addInitScript((sel: string) => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector(sel)) return;
        observer.disconnect();
        requestAnimationFrame(() => console.debug(`bo-first-row ${performance.now()}`));
      }).observe(document, { subtree: true, childList: true });
    }, selector);
    if (warm) {
      await page.goto(`${url}/`, { waitUntil: 'networkidle' });
      for (let i = 0; i < 2; i++) {
        const shown = nextFirstRow(page, path);
        await page.goto(`${url}${path}`, { waitUntil: 'commit' });
        await shown;
        await page.waitForLoadState('networkidle');
      }
    }
    const painted = nextFirstRow(page, path);
    await page.goto(`${url}${path}`, { waitUntil: 'commit' });
    return await painted;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const only = process.env.WEB_KINDS?.split(',');
  const bench = await startWebBench();
  try {
    const js = [];
    for (let i = 0; i < Math.min(RUNS, 3); i++) js.push(await signinJs(bench.browser, bench.url));
    const s = js[js.length - 1]!;
    log(`/signin JavaScript: ${s.files} files, ${(s.bytes / 1024).toFixed(1)} KB on the wire (${s.encodings.join(', ')}), ${(s.raw / 1024).toFixed(1)} KB decoded: target ≤ 150 KB ${s.bytes <= 150 * 1024 ? 'PASS' : 'MISS'}`);
    log(`load average at the start: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    for (const warm of WAYS) {
      const way = warm ? 'warm' : 'cold';
      for (const { kind, paths, selector } of KINDS) {
        if (only && !only.includes(kind)) continue;
        // the server's first request of each path warms it up, not counted
        for (const p of paths) await firstRow(bench.browser, bench.url, bench.storage, p, selector, warm);
        const times: Record<string, number[]> = Object.fromEntries(paths.map((p) => [p, []]));
        for (let i = 0; i < RUNS; i++) for (const p of paths) times[p]!.push(await firstRow(bench.browser, bench.url, bench.storage, p, selector, warm));
        const all = Object.values(times).flat();
        const p90 = pct(all, 0.9);
        const each = paths.map((p) => `${p} ${Math.round(pct(times[p]!, 0.5))}`).join(', ');
        log(`${kind.padEnd(11)} first row painted, ${way}: median ${Math.round(pct(all, 0.5))} ms, p90 ${Math.round(p90)} ms of ${all.length} (medians: ${each}; load ${loadavg()[0]!.toFixed(2)}): target p90 ≤ 600 ms ${p90 <= 600 ? 'PASS' : 'MISS'}`);
      }
    }
  } finally {
    await bench.close();
  }
}

main().catch((err) => {
  console.error('[web] could not run:', err);
  process.exit(1);
});
