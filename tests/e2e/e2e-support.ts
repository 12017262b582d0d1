import { cpSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { readConfig, type AppConfig } from '../../server/config/app-config.ts';
import { bootstrap, type Started } from '../../server/bootstrap.ts';
import { seedDemo } from '../../seed/demo-seeder.ts';
import { registerWebStatic } from '../../server/web/web-static.ts';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';
import { businessToday, DEFAULT_TIME_ZONE } from '../../engine/documents/business-time.ts';
import { oncePerRun } from '../support/test-run.ts';

export const ROOT = resolve(import.meta.dirname, '../..');
export const ARTIFACTS = join(ROOT, 'tests', 'artifacts');
export const ADMIN_PASSWORD = 'E2e-admin-Pass-1';
export const DEMO_PASSWORD = 'E2e-demo-Pass-1';

export interface E2eServer {
  baseUrl: string;
  started: Started;
  close(): Promise<void>;
}

/** The demo server's settings on a data folder (its SQLite file, JWT secret and uploads live there). */
function demoConfig(dir: string): AppConfig {
  return readConfig({
    ...process.env, DATA_DIR: dir, DATABASE_URL: join(dir, 'e2e.sqlite'), PORT: '0', SEED: 'demo', LOG_LEVEL: 'silent',
    ADMIN_PASSWORD, DEMO_PASSWORD, SCHEMAS_DIR: join(ROOT, 'schemas'),
  });
}

/**
 * A data folder with the demo data loaded, made once per test run (test-run.ts) and business day: loading
 * the demo data takes 7-15 s on this machine, which each browser test file paid before starting its server. Keyed by the
 * business day because the demo data's dates follow today ({"$today": -30}). Undefined outside a run.
 */
async function demoTemplate(): Promise<string | undefined> {
  const today = businessToday(new Date(), process.env.BUSINESS_TIME_ZONE || DEFAULT_TIME_ZONE);
  return oncePerRun(`demo-${today}`, async (dir) => {
    const started = await bootstrap(demoConfig(join(dir, 'data')), { hashLogN: 10, seeder: seedDemo });
    await started.app.close();
    await started.db.close();
  });
}

/**
 * The real server on a temporary database with the demo data, serving the built web app. The data is a copy
 * of the run's demo template (the same rows a fresh load makes); `freshDatabase` loads the demo data anew.
 */
export async function startServer(opts: { freshDatabase?: boolean } = {}): Promise<E2eServer> {
  const dist = await ensureWebBuilt(ROOT);
  const dir = mkdtempSync(join(tmpdir(), 'bo-e2e-'));
  const template = opts.freshDatabase ? undefined : await demoTemplate();
  // the copy carries the demo-loaded mark, so bootstrap below only checks its tables
  if (template) cpSync(join(template, 'data'), dir, { recursive: true });
  const started = await bootstrap(demoConfig(dir), { web: (app) => registerWebStatic(app, dist), hashLogN: 10, seeder: seedDemo });
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
  await page.locator('.bo-header').waitFor();
  // the side menu shows beside the page only on a wide screen (styles.css, 900 px); a phone's stays closed, and
  // waiting for it there spent the whole timeout
  if ((page.viewportSize()?.width ?? 1280) > 900) await page.locator('.bo-sidemenu').waitFor();
}

/**
 * Opens a path inside the running app as a link would (the router hears popstate), not as a new page load: a
 * test that walks many screens of one session skips reloading the app for each (seconds per screen on CI).
 * Use page.goto where the cold load itself is what is tested.
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => { window.history.pushState(null, '', p); window.dispatchEvent(new PopStateEvent('popstate')); }, path);
  await page.waitForURL((u) => u.pathname + u.search === path);
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

export interface Credentials { username: string; password: string }
export const ADMIN: Credentials = { username: 'admin', password: ADMIN_PASSWORD };

/** How a browser test starts; every option has the default most tests want. */
export interface SessionOptions {
  /** Added to or overriding the page's context options: a 1366 × 900 page in th-TH. */
  context?: BrowserContextOptions;
  /** Playwright's default timeout for the page's actions (its own default is 30 s). */
  timeout?: number;
  /** Who the page signs in as (the admin unless given); false leaves the page unopened. */
  signIn?: Credentials | false;
  /** Arranges data through the admin's API client before the page signs in. */
  arrange?: (api: ApiCall, server: E2eServer) => Promise<void>;
  /** Loads the demo data anew instead of copying the run's demo template. */
  freshDatabase?: boolean;
}

/** What a browser test works with: the demo server, Chromium, a page (signed in unless asked not to), the admin's API client. */
export interface BrowserSession {
  server: E2eServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** The page's errors (watchErrors): a test asserts it stays empty. */
  errors: string[];
  api: ApiCall;
  /** The admin's API token, for a request the API client does not make (a download, a raw fetch). */
  token: string;
  /** The server's address of a path. */
  url(path: string): string;
  /** Another page in a context of its own (the session's options plus `context`), signed in as `user` when given. */
  newPage(opts?: { user?: Credentials; context?: BrowserContextOptions }): Promise<Page>;
}

/**
 * The worker's Chromium. Test files that share a worker (vitest.config.ts, `isolate: false`) share it too: a
 * launch cost 0.4–1 s of each browser file. Each file works in browser contexts of its own (cookies, storage
 * and cache are a context's), which closeSession closes; the browser itself ends with the worker's process.
 */
let workerBrowser: Promise<Browser> | undefined;

async function sharedBrowser(): Promise<Browser> {
  const current = await workerBrowser?.catch(() => undefined);
  if (current?.isConnected()) return current;
  workerBrowser = launchBrowser();
  return workerBrowser;
}

/** Starts a browser test: the one way every file under tests/e2e begins (call it in beforeAll, closeSession in afterAll). */
export async function browserSession(opts: SessionOptions = {}): Promise<BrowserSession> {
  const server = await startServer({ freshDatabase: opts.freshDatabase });
  let browser: Browser | undefined;
  try {
    browser = await sharedBrowser();
    // a file that ended without closeSession (a failed start) leaves no page behind for the next file
    await closeContexts(browser);
    return await openPage(server, browser, opts);
  } catch (e) {
    // a failed start leaves nothing running (its afterAll has no session to close)
    await closeSession({ server, browser });
    throw e;
  }
}

async function closeContexts(browser: Browser): Promise<void> {
  await Promise.all(browser.contexts().map((c) => c.close().catch(() => undefined)));
}

async function openPage(server: E2eServer, browser: Browser, opts: SessionOptions): Promise<BrowserSession> {
  const contextOptions: BrowserContextOptions = { viewport: { width: 1366, height: 900 }, locale: 'th-TH', ...opts.context };
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const errors = watchErrors(page);
  if (opts.timeout) page.setDefaultTimeout(opts.timeout);
  const token = await apiSignIn(server.baseUrl, ADMIN.username, ADMIN.password);
  const api = apiClient(server.baseUrl, token);
  await opts.arrange?.(api, server);
  if (opts.signIn !== false) {
    const who = opts.signIn ?? ADMIN;
    await signInInBrowser(page, server.baseUrl, who.username, who.password);
  }
  return {
    server, browser, context, page, errors, api, token,
    url: (path) => new URL(path, server.baseUrl).toString(),
    async newPage({ user, context: more } = {}) {
      const p = await (await browser.newContext({ ...contextOptions, ...more })).newPage();
      if (user) await signInInBrowser(p, server.baseUrl, user.username, user.password);
      return p;
    },
  };
}

/** Closes what browserSession started (it may be missing when the start failed): the file's browser contexts (the worker's browser stays for the next file) and its server. */
export async function closeSession(s: Partial<BrowserSession> | undefined): Promise<void> {
  if (s?.browser) await closeContexts(s.browser);
  await s?.server?.close();
}
