/**
 * `npm run bench:web`: what a browser receives from the production build
 * (node build/scripts/server-main.js, as `npm start` runs it), in headless Chromium.
 * A benchmark, not a test: it prints figures and PASS/MISS, and exits 0 either way.
 *
 *  - /signin: the JavaScript bytes that cross the wire (encoded body sizes,
 *    so compression counts), cold cache. Target ≤ 150 KB.
 *  - time to the first row of each kind of screen (list, record, create-from,
 *    report, dashboard; two paths each), cold HTTP cache (a new browser context
 *    each run) but signed in, runs of the paths interleaved. Target: p90 ≤ 600 ms per kind.
 *
 * WEB_RUNS (7): runs of each path (each kind's figures are over both its paths' runs).
 * WEB_KINDS: a comma list to measure only some kinds.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { loadavg } from 'node:os';
import { startWebBench } from './web-support.ts';

const RUNS = Number(process.env.WEB_RUNS ?? 7);
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
 * machine, measured side by side on 2026-11-29; docs/performance.md).
 */
async function firstRow(browser: Browser, url: string, storage: Awaited<ReturnType<BrowserContext['storageState']>>, path: string, selector: string): Promise<number> {
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
    const painted = new Promise<number>((resolve) => page.on('console', (m) => {
      const [tag, at] = m.text().split(' ');
      if (tag === 'bo-first-row') resolve(Number(at));
    }));
    await page.goto(`${url}${path}`, { waitUntil: 'commit' });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${path}: no first row within 20 s`)), 20_000); });
    try { return await Promise.race([painted, timeout]); } finally { clearTimeout(timer); }
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
    for (const { kind, paths, selector } of KINDS) {
      if (only && !only.includes(kind)) continue;
      // the server's first request of each path warms it up, not counted
      for (const p of paths) await firstRow(bench.browser, bench.url, bench.storage, p, selector);
      const times: Record<string, number[]> = Object.fromEntries(paths.map((p) => [p, []]));
      for (let i = 0; i < RUNS; i++) for (const p of paths) times[p]!.push(await firstRow(bench.browser, bench.url, bench.storage, p, selector));
      const all = Object.values(times).flat();
      const p90 = pct(all, 0.9);
      const each = paths.map((p) => `${p} ${Math.round(pct(times[p]!, 0.5))}`).join(', ');
      log(`${kind.padEnd(11)} first row painted, cold cache: median ${Math.round(pct(all, 0.5))} ms, p90 ${Math.round(p90)} ms of ${all.length} (medians: ${each}; load ${loadavg()[0]!.toFixed(2)}): target p90 ≤ 600 ms ${p90 <= 600 ? 'PASS' : 'MISS'}`);
    }
  } finally {
    await bench.close();
  }
}

main().catch((err) => {
  console.error('[web] could not run:', err);
  process.exit(1);
});
