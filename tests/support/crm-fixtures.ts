/**
 * Fixtures for tests/crm: apps built like test-app.ts but with the realtime
 * options (alertPollMs, redisUrl), extra instances on the same database,
 * hand-built multipart bodies, small valid files, and bounded socket waits.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { readSchemaDir } from '../../server/schema-files.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';
import { ADMIN_PASSWORD, SCHEMAS_DIR, TEST_HASH_LOG_N, TEST_SECRET, type TestApp } from './test-app.ts';
import { createTestDatabase, type DialectName, type TestDatabase } from './test-databases.ts';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface InstanceOptions {
  redisUrl?: string;
  /** Redis channel and key prefix; instances that should hear each other share one. */
  redisKey?: string;
  alertPollMs?: number;
  principalCacheMs?: number;
  uploadDir?: string;
  uploadMaxBytes?: number;
  allowedOrigins?: string[];
}

/** One more app (server instance) on an existing, already prepared database. */
export interface Instance extends BuiltApp {
  db: Database;
  registry: SchemaRegistry;
  close(): Promise<void>;
}

export async function buildInstance(url: string, opts: InstanceOptions = {}, prepare = false): Promise<Instance> {
  const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
  const db = openDatabase(url);
  if (prepare) await prepareDatabase(db, registry);
  const built = await buildApp({
    db, registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N,
    uploadDir: opts.uploadDir ?? mkdtempSync(join(tmpdir(), 'bo-uploads-')), uploadMaxBytes: opts.uploadMaxBytes ?? 1024 * 1024,
    redisUrl: opts.redisUrl, redisKey: opts.redisKey, alertPollMs: opts.alertPollMs, principalCacheMs: opts.principalCacheMs, allowedOrigins: opts.allowedOrigins,
  });
  return {
    ...built, db, registry,
    async close() {
      await built.app.close();
      await db.close();
    },
  };
}

/** Like createTestApp, with realtime options; the result works with security-fixtures' Client. */
export async function createCrmApp(dialect: DialectName, opts: InstanceOptions = {}): Promise<TestApp> {
  const testDb: TestDatabase = await createTestDatabase(dialect);
  const inst = await buildInstance(testDb.url, opts, true);
  await ensureAdmin(inst.db, inst.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
  const res = await inst.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
  const token = res.json().data?.id_token;
  if (!token) throw new Error(`test admin could not sign in: ${res.body}`);
  return {
    ...inst, testDb, headers: { authorization: `Bearer ${token}` },
    async close() {
      await inst.close();
      await testDb.drop();
    },
  };
}

/** Listens on a free port of 127.0.0.1 and answers the base URL. */
export async function listen(app: BuiltApp['app']): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

export const tokenOf = (headers: Record<string, string>) => headers.authorization!.replace(/^Bearer /, '');

// ---- files ----

/** A minimal but well-formed one-page PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n'
  + '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 10 10]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
/** A 1×1 transparent PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
/** The start of an ELF executable. */
export const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(120, 0)]);
/** The start of a Windows executable ("MZ"). */
export const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120, 0)]);
export const SCRIPT = Buffer.from('#!/bin/sh\nrm -rf / --no-preserve-root\n');

export interface Part {
  name?: string;
  filename?: string;
  contentType?: string;
  content: Buffer | string;
}

/** A multipart/form-data body built by hand, with its headers, for app.inject. */
export function multipart(parts: Part[], boundary = `----crm-test-${Math.random().toString(16).slice(2)}`): { payload: Buffer; headers: Record<string, string> } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name ?? 'file'}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n`
      + (p.filename === undefined ? '' : `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n`) + '\r\n'));
    chunks.push(Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  const payload = Buffer.concat(chunks);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(payload.length) } };
}

// ---- sockets ----

export function connectSocket(baseUrl: string, token?: unknown): Socket {
  return io(baseUrl, { auth: token === undefined ? {} : { token }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000 });
}

/** Resolves once the socket is connected, rejects on connect_error or after `ms`. */
export function connected(socket: Socket, ms = 5000): Promise<void> {
  if (socket.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { cleanup(); reject(new Error(`not connected within ${ms} ms`)); }, ms);
    const ok = () => { cleanup(); resolve(); };
    const bad = (err: Error) => { cleanup(); reject(err); };
    const cleanup = () => { clearTimeout(timer); socket.off('connect', ok); socket.off('connect_error', bad); };
    socket.on('connect', ok);
    socket.on('connect_error', bad);
  });
}

/** Resolves with the connect_error a refused handshake gives, rejects if it connects or nothing happens within `ms`. */
export function refused(socket: Socket, ms = 5000): Promise<Error> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { cleanup(); reject(new Error(`neither connected nor refused within ${ms} ms`)); }, ms);
    const ok = () => { cleanup(); reject(new Error('the handshake was accepted')); };
    const bad = (err: Error) => { cleanup(); resolve(err); };
    const cleanup = () => { clearTimeout(timer); socket.off('connect', ok); socket.off('connect_error', bad); };
    socket.on('connect', ok);
    socket.on('connect_error', bad);
  });
}

/** Records every payload of one event a socket receives, so a test can wait for a value or check none came. */
export class EventLog<T = unknown> {
  readonly received: T[] = [];
  private waiters: { test: (p: T) => boolean; resolve: (p: T) => void }[] = [];

  constructor(socket: Socket, event: string) {
    socket.on(event, (payload: T) => {
      this.received.push(payload);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(payload)) return true;
        w.resolve(payload);
        return false;
      });
    });
  }

  /** Where the log stands now; pass it to next() to ignore what came before an action. */
  mark(): number {
    return this.received.length;
  }

  /** The first payload received at or after index `from` (already, or within `ms`) that passes `test`. */
  next(test: (p: T) => boolean = () => true, ms = 5000, from = 0): Promise<T> {
    const already = this.received.slice(from).find(test);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const waiter = { test, resolve: (p: T) => { clearTimeout(timer); resolve(p); } };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching event within ${ms} ms (received: ${JSON.stringify(this.received)})`));
      }, ms);
      this.waiters.push(waiter);
    });
  }

  clear(): void {
    this.received.length = 0;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
