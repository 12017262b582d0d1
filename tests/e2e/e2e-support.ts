import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { readConfig } from '../../server/config/app-config.ts';
import { bootstrap, type Started } from '../../server/bootstrap.ts';
import { seedDemo } from '../../seed/demo-seeder.ts';
import { registerWebStatic } from '../../server/web/web-static.ts';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts');
export const ADMIN_PASSWORD = 'E2e-admin-Pass-1';
export const DEMO_PASSWORD = 'E2e-demo-Pass-1';

export interface E2eServer {
  baseUrl: string;
  started: Started;
  close(): Promise<void>;
}

/** The real server on a temporary database with the demo data, serving the built web app. */
export async function startServer(): Promise<E2eServer> {
  const dist = await ensureWebBuilt(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'bo-e2e-'));
  const config = readConfig({
    ...process.env, DATA_DIR: dir, DATABASE_URL: join(dir, 'e2e.sqlite'), PORT: '0', SEED: 'demo', LOG_LEVEL: 'silent',
    ADMIN_PASSWORD, DEMO_PASSWORD, SCHEMAS_DIR: join(ROOT, 'schemas'),
  });
  const started = await bootstrap(config, { web: (app) => registerWebStatic(app, dist), hashLogN: 10, seeder: seedDemo });
  const address = await started.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl: address,
    started,
    async close() {
      await started.app.close();
      await started.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });
}

/** Collects page errors so a test can assert the app never threw. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // the app runs under the server's Content-Security-Policy: anything it blocks is an error of the app
  page.on('console', (m) => { if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text()); });
  return errors;
}

export type ApiAnswer = { success: boolean; data: any; meta?: any; error?: any };
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<ApiAnswer>;

/** Signs in through the API and answers the token. */
export async function apiSignIn(baseUrl: string, username: string, password: string): Promise<string> {
  const res = await fetch(new URL('/api/auth/signin', baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  const body = (await res.json()) as { data?: { id_token: string } };
  if (!body.data?.id_token) throw new Error(`sign-in of ${username} failed: ${JSON.stringify(body)}`);
  return body.data.id_token;
}

/** A JSON API caller with a Bearer token (for arranging data and checking what the browser stored). */
export function apiClient(baseUrl: string, token: string): ApiCall {
  return async (method, path, body) => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return (await res.json()) as ApiAnswer;
  };
}

/** Signs in through the sign-in page (Thai labels) and waits for the shell. */
export async function signInInBrowser(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(new URL('/signin', baseUrl).toString());
  await page.getByLabel('ชื่อผู้ใช้').fill(username);
  await page.getByLabel('รหัสผ่าน').fill(password);
  await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
  await page.locator('.bo-sidemenu').waitFor();
}

/** Closes the toasts on screen (so a screenshot shows the screen, not the messages stacked over it). */
export async function dismissToasts(page: Page): Promise<void> {
  const close = page.locator('.p-toast-message .p-toast-icon-close');
  for (let i = 0; i < 10 && (await close.count()) > 0; i++) {
    await close.first().click({ timeout: 2000 }).catch(() => undefined);
    await page.waitForTimeout(50);
  }
  await page.locator('.p-toast-message').first().waitFor({ state: 'detached', timeout: 3000 }).catch(() => undefined);
}

/**
 * Resolves once the page's socket is connected and judged by the server: the server's first
 * message to an accepted socket is `schema-changed` with its current version. Call it before
 * the navigation that opens the socket; a test that expects a live event waits for this first,
 * so the event cannot be sent before the socket exists.
 */
export function socketReady(page: Page, timeout = 20_000): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the page socket did not connect')), timeout);
    page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => {
        if (typeof f.payload === 'string' && f.payload.startsWith('42["schema-changed"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  });
}

/** What most browser tests start with: the demo server, Chromium, a Thai page signed in as the admin, and the admin's API client. */
export interface AdminSession { server: E2eServer; browser: Browser; page: Page; errors: string[]; api: ApiCall }

/** Starts an AdminSession (a 1366 × 900 page in th-TH; `context` adds to or overrides those options). */
export async function adminSession(context: BrowserContextOptions = {}): Promise<AdminSession> {
  const server = await startServer();
  const browser = await launchBrowser();
  const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 }, locale: 'th-TH', ...context })).newPage();
  const errors = watchErrors(page);
  const api = apiClient(server.baseUrl, await apiSignIn(server.baseUrl, 'admin', ADMIN_PASSWORD));
  await signInInBrowser(page, server.baseUrl, 'admin', ADMIN_PASSWORD);
  return { server, browser, page, errors, api };
}

/** Closes what adminSession started (either may be missing when the start failed). */
export async function closeSession(s: Partial<AdminSession> | undefined): Promise<void> {
  await s?.browser?.close();
  await s?.server?.close();
}
