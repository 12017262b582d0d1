/**
 * SERVER_WORKERS=2: the real server (server/main.ts) as a primary and two
 * worker processes on one port, SQLite and Redis. New connections go to both
 * workers; a session made on one works on the other and a sign-out ends it on
 * both; an alert written through one worker reaches a socket held by the
 * other; a worker that dies is replaced; SIGTERM stops both workers
 * gracefully and the primary exits 0.
 * Without REDIS_URL it refuses to start, saying why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { io, type Socket } from 'socket.io-client';
import { TEST_REDIS_URL } from '../support/crm-fixtures.ts';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_PASSWORD = 'Workers-admin-Pass-1';

interface LogLine { pid: number; msg?: string; reqId?: string; url?: string; method?: string; statusCode?: number }

/** One request on its own connection (connection: close), so each may go to another worker. */
function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; json: any; requestId: string }> {
  return new Promise((ok, fail) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(new URL(path, base), {
      method,
      headers: { connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => ok({ status: res.statusCode!, json: text ? JSON.parse(text) : null, requestId: String(res.headers['x-request-id']) }));
    });
    req.on('error', fail);
    req.end(payload);
  });
}

describe('SERVER_WORKERS=2 on SQLite with Redis', () => {
  let dir: string;
  let child: ChildProcess;
  let base: string;
  let primaryPid = 0;
  const logs: LogLine[] = [];
  const sockets: Socket[] = [];
  /** The worker that answered a request, from its request log line (pino writes the pid on every line). */
  const workerOf = async (requestId: string): Promise<number> => {
    await expect.poll(() => logs.some((l) => l.reqId === requestId && l.statusCode !== undefined)).toBe(true);
    return logs.find((l) => l.reqId === requestId && l.statusCode !== undefined)!.pid;
  };

  beforeAll(async () => {
    await ensureWebBuilt(ROOT);
    dir = mkdtempSync(join(tmpdir(), 'bo-workers-'));
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/server-main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env, NODE_ENV: 'production', DATA_DIR: dir, DATABASE_URL: join(dir, 'db.sqlite'), PORT: '0', SEED: 'none', ADMIN_PASSWORD, LOG_LEVEL: 'info',
        SERVER_WORKERS: '2', REDIS_URL: TEST_REDIS_URL, REDIS_KEY: `test-workers-${process.pid}-${Date.now().toString(36)}`,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolveBase, reject) => {
      let url = '';
      createInterface({ input: child.stdout! }).on('line', (line) => {
        let l: LogLine;
        try { l = JSON.parse(line) as LogLine; } catch { return; }
        logs.push(l);
        const m = /serving on (http:\/\/[^ ]+)/.exec(l.msg ?? '');
        if (m) url = m[1]!;
        if (/server workers listening/.test(l.msg ?? '')) { primaryPid = l.pid; resolveBase(url); }
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening`)));
    });
  }, 180_000);
  afterAll(() => {
    for (const s of sockets) s.disconnect();
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('two worker processes answer on one port; a session made on one works on the other, and a sign-out ends it on both', async () => {
    const signin = await call(base, 'POST', '/api/auth/signin', undefined, { username: 'admin', password: ADMIN_PASSWORD });
    expect(signin.status).toBe(200);
    const token = signin.json.data.id_token as string;
    const before = await Promise.all(Array.from({ length: 8 }, () => call(base, 'GET', '/api/return_reason?limit=1', token)));
    expect(before.map((r) => r.status)).toEqual(Array(8).fill(200));
    const workers = new Set(await Promise.all(before.map((r) => workerOf(r.requestId))));
    expect(workers.size).toBe(2);
    expect(workers.has(primaryPid)).toBe(false);

    const out = await call(base, 'POST', '/api/auth/signout', token);
    expect(out.status).toBe(200);
    const after = await Promise.all(Array.from({ length: 8 }, () => call(base, 'GET', '/api/return_reason?limit=1', token)));
    expect(after.map((r) => r.status)).toEqual(Array(8).fill(401));
    expect(new Set(await Promise.all(after.map((r) => workerOf(r.requestId)))).size).toBe(2);
  });

  it('an alert written through one worker reaches a socket held by the other', async () => {
    const signin = await call(base, 'POST', '/api/auth/signin', undefined, { username: 'admin', password: ADMIN_PASSWORD });
    const token = signin.json.data.id_token as string;
    const userId = signin.json.data.user.id as number;
    const socket = io(base, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    const counts: number[] = [];
    socket.on('update-alert-number', (p: { notificationNumber: number }) => counts.push(p.notificationNumber));
    await new Promise<void>((ok, fail) => { socket.once('connect', () => ok()); socket.once('connect_error', fail); });
    // alerts written on new connections until both workers have written one: whichever holds the socket, the other wrote too
    const writers = new Set<number>();
    let written = 0;
    for (let i = 0; i < 10 && writers.size < 2; i++) {
      const res = await call(base, 'POST', '/api/alert', token, { user_id: userId, title: `จากอีกกระบวนการ ${i}` });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      written++;
      writers.add(await workerOf(res.requestId));
    }
    expect(writers.size).toBe(2);
    await expect.poll(() => counts.at(-1)).toBe(written);
  });

  it('a worker that dies is replaced, and the port keeps answering meanwhile', async () => {
    const serving = () => logs.filter((l) => /^serving on/.test(l.msg ?? '')).map((l) => l.pid);
    const [victim] = serving();
    process.kill(victim!, 'SIGKILL');
    await expect.poll(() => serving().length, { timeout: 60_000 }).toBe(3);
    const health = await Promise.all(Array.from({ length: 6 }, () => call(base, 'GET', '/api/health')));
    expect(health.map((r) => r.status)).toEqual(Array(6).fill(200));
    await expect.poll(() => logs.some((l) => l.pid === primaryPid && l.msg === 'a server worker died; starting another')).toBe(true);
  }, 90_000);

  it('SIGTERM stops both workers gracefully and the primary exits 0', async () => {
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const stopped = new Set(logs.filter((l) => l.msg === 'stopped').map((l) => l.pid));
    expect(stopped.size).toBe(2);
  }, 30_000);

  it('refuses to start several workers without Redis, saying why', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/server-main.ts')], {
      cwd: ROOT, encoding: 'utf8', timeout: 60_000,
      env: { ...process.env, DATA_DIR: dir, PORT: '0', SEED: 'none', SERVER_WORKERS: '2', REDIS_URL: '' },
    });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('SERVER_WORKERS=2 needs REDIS_URL');
  }, 60_000);
});
