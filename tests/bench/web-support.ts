/**
 * The browser benches' shared start: the production build (node build/scripts/server-main.js, as `npm start`
 * runs it) on a temporary demo database, headless Chromium, and the admin's stored session
 * (signed in once through the page), so each measured run can start from a new, cold context.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { ROOT } from './bench-db.ts';

export const ADMIN_PASSWORD = 'Web-admin-Pass-1';

/** What a person reads first on each kind of screen: a list's, report's or create-from's first data cell, a record's first filled field. */
export const FIRST_CONTENT = [
  '[data-testid=entity-list] tbody tr:not(.p-datatable-emptymessage) td',
  '[data-testid=report-table] tbody td',
  '[data-testid=create-from-documents] tbody td',
  'form.bo-form[data-form-type=edit] input',
  '[data-testid=home-dashboard] .bo-dash-card',
].join(', ');

export interface WebBench {
  url: string;
  browser: Browser;
  storage: Awaited<ReturnType<BrowserContext['storageState']>>;
  firstRowSelector: string;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); });
  });
}

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 3000; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the server was not ready within 300 s');
}

export async function startServer(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'build/scripts/server-main.js')], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dir, DATABASE_URL: join(dir, 'web.sqlite'), SEED: 'demo', ADMIN_PASSWORD, DEMO_PASSWORD: 'Web-demo-Pass-1', LOG_LEVEL: 'warn', REDIS_URL: '' },
  });
  const url = `http://127.0.0.1:${port}`;
  await untilReady(url, child);
  return { url, child };
}

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Builds when stale, starts the server and Chromium, and signs the admin in once. */
export async function startWebBench(): Promise<WebBench> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('build failed');
  const dir = mkdtempSync(join(tmpdir(), 'bo-web-bench-'));
  const server = await startServer(dir);
  const browser = await launch();
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${server.url}/signin`);
  await page.getByLabel('ชื่อผู้ใช้').fill('admin');
  await page.getByLabel('รหัสผ่าน').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
  await page.locator('.bo-sidemenu').waitFor();
  const storage = await ctx.storageState();
  await ctx.close();
  return {
    url: server.url, browser, storage, firstRowSelector: FIRST_CONTENT,
    async close() {
      await browser.close();
      server.child.kill('SIGTERM');
      await new Promise((r) => server.child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
