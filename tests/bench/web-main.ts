/**
 * `npm run bench:web`: what a browser receives from the production build
 * (node build/server/main.js, as `npm start` runs it), in headless Chromium.
 * A benchmark, not a test: it prints figures and PASS/MISS, and exits 0 either way.
 *
 *  - /signin: the JavaScript bytes that cross the wire (encoded body sizes,
 *    so compression counts), cold cache. Target ≤ 150 KB.
 *  - /product: time from navigation to the first data row of the list, cold
 *    HTTP cache (a new browser context each run) but signed in. Target ≤ 600 ms.
 *
 * WEB_RUNS (7): runs of each measurement (the median is reported).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { ROOT } from './bench-db.ts';

const RUNS = Number(process.env.WEB_RUNS ?? 7);
const ADMIN_PASSWORD = 'Web-admin-Pass-1';
const log = (m: string) => console.log(`[web] ${m}`);
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]!; };

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); });
  });
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server was not ready within 120 s');
}

async function startServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'build/server/main.js')], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dir, DATABASE_URL: join(dir, 'web.sqlite'), SEED: 'demo', ADMIN_PASSWORD, DEMO_PASSWORD: 'Web-demo-Pass-1', LOG_LEVEL: 'warn', REDIS_URL: '' },
  });
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child);
  return { url, child };
}

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

const FIRST_CELL = '[data-testid=entity-list] tbody tr:not(.p-datatable-emptymessage) td';

/**
 * Two clocks: the page's own (from the navigation's start, performance.timeOrigin, to
 * the first frame after the first data cell entered the DOM), which is what a person
 * sees and what the target is judged on; and the driver's (from just before goto to
 * the locator finding the cell), which adds the automation protocol's round trips and
 * its polling.
 */
async function productFirstRow(browser: Browser, url: string, storage: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<{ page: number; driver: number }> {
  const context = await browser.newContext({ storageState: storage });
  try {
    const page = await context.newPage();
    await page.addInitScript((selector: string) => {
      const w = window as unknown as { __firstRowPainted?: number };
      new MutationObserver((_, observer) => {
        if (!document.querySelector(selector)) return;
        observer.disconnect();
        requestAnimationFrame(() => { w.__firstRowPainted = performance.now(); });
      }).observe(document, { subtree: true, childList: true });
    }, FIRST_CELL);
    const t0 = performance.now();
    await page.goto(`${url}/product`, { waitUntil: 'commit' });
    await page.locator(FIRST_CELL).first().waitFor({ timeout: 20_000 });
    const driver = performance.now() - t0;
    const painted = await page.waitForFunction(() => (window as unknown as { __firstRowPainted?: number }).__firstRowPainted, undefined, { timeout: 5_000 });
    return { page: Number(await painted.jsonValue()), driver };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const dir = mkdtempSync(join(tmpdir(), 'bo-web-bench-'));
  const server = await startServer(dir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const js = [];
    for (let i = 0; i < Math.min(RUNS, 3); i++) js.push(await signinJs(browser, server.url));
    const s = js[js.length - 1]!;
    log(`/signin JavaScript: ${s.files} files, ${(s.bytes / 1024).toFixed(1)} KB on the wire (${s.encodings.join(', ')}), ${(s.raw / 1024).toFixed(1)} KB decoded: target ≤ 150 KB ${s.bytes <= 150 * 1024 ? 'PASS' : 'MISS'}`);

    // sign in once through the page; each measured run starts from a new context with only the stored session
    const ctx = await browser.newContext();
    const page = await ctx.newPage();
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('ชื่อผู้ใช้').fill('admin');
    await page.getByLabel('รหัสผ่าน').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
    await page.locator('.bo-sidemenu').waitFor();
    const storage = await ctx.storageState();
    await ctx.close();
    await productFirstRow(browser, server.url, storage); // the server's own first-request warm-up, not counted
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await productFirstRow(browser, server.url, storage));
    const times = runs.map((r) => r.page);
    const m = median(times);
    log(`/product first row painted, cold cache, from the navigation's start (page clock): median ${Math.round(m)} ms of ${RUNS} (min ${Math.round(Math.min(...times))}, max ${Math.round(Math.max(...times))}): target ≤ 600 ms ${m <= 600 ? 'PASS' : 'MISS'}`);
    log(`  (driver clock, goto to locator found, with the automation's round trips: median ${Math.round(median(runs.map((r) => r.driver)))} ms)`);
  } finally {
    await browser.close();
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error('[web] could not run:', err);
  process.exit(1);
});
