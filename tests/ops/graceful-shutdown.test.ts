/**
 * The real server as a child process (server/main.ts, as `npm run start:dev`
 * runs it): requests in flight when SIGTERM arrives all get their answers,
 * connected sockets get the reconnect hint, and the process exits 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { io } from 'socket.io-client';
import { ensureWebBuilt } from '../../scripts/web-build.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const ADMIN_PASSWORD = 'Shutdown-admin-Pass-1';

interface Answer { status: number; body: string }

/** A POST whose body arrives in two halves, `gapMs` apart: it is accepted and in flight for that long. */
function slowPost(base: string, path: string, headers: Record<string, string>, body: string, gapMs: number, sent: () => void): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const req = request(new URL(path, base), { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolveAnswer({ status: res.statusCode!, body: text }));
    });
    req.on('error', (err) => reject(new Error(`slow POST ${path}: ${err.message}`)));
    const half = Math.floor(body.length / 2);
    req.write(body.slice(0, half), () => sent());
    setTimeout(() => req.end(body.slice(half)), gapMs);
  });
}

function get(base: string, path: string, headers: Record<string, string>, connected: () => void): Promise<Answer> {
  return new Promise((resolveAnswer, reject) => {
    const req = request(new URL(path, base), { headers: { ...headers, connection: 'close' } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolveAnswer({ status: res.statusCode!, body: text }));
    });
    req.on('error', (err) => reject(new Error(`GET ${path}: ${err.message}`)));
    req.on('socket', (s) => s.once('connect', connected));
    req.end();
  });
}

describe('SIGTERM', () => {
  let dir: string;
  let child: ChildProcess;
  let base: string;
  const logs: string[] = [];

  beforeAll(async () => {
    await ensureWebBuilt(ROOT);
    dir = mkdtempSync(join(tmpdir(), 'bo-shutdown-'));
    child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/server-main.ts')], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'production', DATA_DIR: dir, DATABASE_URL: join(dir, 'db.sqlite'), PORT: '0', SEED: 'none', ADMIN_PASSWORD, LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_MS: '8000', REDIS_URL: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    base = await new Promise<string>((resolveBase, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        logs.push(line);
        const m = /serving on (http:\/\/[^ ]+)/.exec(line);
        if (m) resolveBase(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`the server exited with ${code} before listening:\n${logs.join('\n')}`)));
    });
  }, 180_000);
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('answers every accepted request, sends sockets a reconnect hint, and exits 0', async () => {
    const signin = await fetch(new URL('/api/auth/signin', base), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'admin', password: ADMIN_PASSWORD }) });
    const token = ((await signin.json()) as { data: { id_token: string } }).data.id_token;
    const auth = { authorization: `Bearer ${token}` };

    const socket = io(base, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true });
    await new Promise<void>((ok, fail) => { socket.once('connect', () => ok()); socket.once('connect_error', fail); });
    const hint = new Promise<unknown>((ok) => socket.once('server-restarting', ok));
    const disconnected = new Promise<string>((ok) => socket.once('disconnect', (reason) => ok(reason)));

    // slow requests: the body's second half comes 3 s after the first, about 2 s after SIGTERM
    let sentCount = 0;
    let allSent!: () => void;
    const bodiesStarted = new Promise<void>((ok) => { allSent = ok; });
    // (writes, not sign-ins: five scrypt hashes at once outlast the shutdown limit on a loaded machine)
    const slow = Array.from({ length: 5 }, (_, i) => slowPost(base, '/api/return_reason', auth, JSON.stringify({ code: `SHUT${i}`, name_th: `ปิดระบบ ${i}` }), 3000, () => { if (++sentCount === 5) allSent(); }));
    await bodiesStarted;
    // and a burst of ordinary reads whose connections are open when the signal arrives
    let opened = 0;
    let allOpen!: () => void;
    const readsOpen = new Promise<void>((ok) => { allOpen = ok; });
    const reads = Array.from({ length: 30 }, (_, i) => get(base, i % 3 ? '/api/product?limit=50' : '/api/meta/entities/product', auth, () => { if (++opened === 30) allOpen(); }));
    await readsOpen;
    // connected is not yet accepted: give the server time to take them off the kernel's queue (a connection
    // still queued when the listening socket closes is reset by the kernel; balancers drain before SIGTERM).
    // A whole second, since a loaded machine (CI running beside other work) can be slow to accept 30 connections.
    await new Promise((r) => setTimeout(r, 1000));
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    child.kill('SIGTERM');

    const answers = await Promise.all([...slow, ...reads]);
    // every slow write was accepted before the signal, so each is carried out and answered
    for (const a of answers.slice(0, 5)) expect(a.status, a.body).toBe(201);
    expect(answers.slice(0, 5).map((a) => JSON.parse(a.body).data.code)).toEqual(['SHUT0', 'SHUT1', 'SHUT2', 'SHUT3', 'SHUT4']);
    // every read whose connection was accepted before the signal is served
    for (const a of answers.slice(5)) expect(a.status, a.body).toBe(200);

    expect(await hint).toEqual({ reconnect: true });
    // "transport close" (not "io server disconnect"): a socket.io client reconnects by itself after it
    expect(await disconnected).toBe('transport close');
    socket.close();

    expect(await exited).toBe(0);
    expect(logs.some((l) => /"msg":"stopped"/.test(l))).toBe(true);
    // after exit nothing listens
    await expect(fetch(new URL('/api/health', base))).rejects.toThrow();
  }, 60_000);
});
