/**
 * Health and readiness probes, request ids, compression of JSON answers, and
 * logs that never carry a password, a token or the JWT secret.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readSchemaDir } from '../../server/schema-files.ts';
import { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { openDatabase } from '../../server/db/database-factory.ts';
import { prepareDatabase } from '../../server/bootstrap.ts';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildApp, type BuiltApp } from '../../server/app.ts';
import { createLogger } from '../../server/ops/logging.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/test-databases.ts';
import { ADMIN_PASSWORD, SCHEMAS_DIR, TEST_HASH_LOG_N, TEST_SECRET } from '../support/test-app.ts';
import type { Database } from '../../server/db/dialect-adapter.ts';

describe.each(testDialects())('operations probes and logs on %s', (dialect) => {
  let testDb: TestDatabase;
  let db: Database;
  let built: BuiltApp;
  const lines: string[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    const registry = new SchemaRegistry(readSchemaDir(SCHEMAS_DIR));
    db = openDatabase(testDb.url);
    await prepareDatabase(db, registry);
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(...String(chunk).split('\n').filter(Boolean)); cb(); } });
    // debug: the most the server ever writes
    built = await buildApp({ db, registry, jwtSecret: TEST_SECRET, hashLogN: TEST_HASH_LOG_N, uploadDir: mkdtempSync(join(tmpdir(), 'bo-uploads-')), logger: createLogger('debug', sink) });
    await ensureAdmin(db, built.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
  });
  afterAll(async () => {
    await built?.app.close();
    await db?.close();
    await testDb?.drop();
  });

  it('/api/health and /api/ready answer without a token', async () => {
    const health = await built.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ success: true });
    const ready = await built.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ success: true });
  });

  it('/api/ready answers 503 naming what is missing (the schema sync here), nothing more, when the schema is not synced', async () => {
    const k = db.kysely;
    const saved = await k.selectFrom('schema_state').select('value').where('key', '=', 'hash').executeTakeFirstOrThrow();
    await k.updateTable('schema_state').set({ value: 'stale' }).where('key', '=', 'hash').execute();
    try {
      const res = await built.app.inject({ method: 'GET', url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ success: false, error: { code: 'NOT_READY', message: 'The server is not ready to serve requests', details: { failing: ['schema'] } } });
    } finally {
      await k.updateTable('schema_state').set({ value: saved.value }).where('key', '=', 'hash').execute();
    }
    expect((await built.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('every answer carries x-request-id; a well-formed incoming one is kept', async () => {
    const answers = await Promise.all([
      built.app.inject({ method: 'GET', url: '/api/health' }),
      built.app.inject({ method: 'GET', url: '/api/product' }), // 401
      built.app.inject({ method: 'GET', url: '/api/nowhere' }),
      built.app.inject({ method: 'GET', url: '/%E0%A4%A' }), // unreadable URL
    ]);
    const ids = answers.map((a) => a.headers['x-request-id']);
    for (const [i, id] of ids.entries()) expect(id, String(i)).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const kept = await built.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'lb-1234.abc' } });
    expect(kept.headers['x-request-id']).toBe('lb-1234.abc');
    const replaced = await built.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'bad id\u0001' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('JSON answers above 1 KB are compressed when the client accepts it; small ones are not', async () => {
    const signin = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const auth = { authorization: `Bearer ${signin.json().data.id_token}` };
    const big = await built.app.inject({ method: 'GET', url: '/api/meta/entities/product', headers: { ...auth, 'accept-encoding': 'gzip' } });
    expect(big.statusCode, big.body).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString()).success).toBe(true);
    const small = await built.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip, br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('answers of tens of KB are compressed with brotli in one call: a whole body with its exact length', async () => {
    const signin = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const auth = { authorization: `Bearer ${signin.json().data.id_token}` };
    const plain = await built.app.inject({ method: 'GET', url: '/api/meta/entities/product', headers: auth });
    // above the plugin's own 8 KB limit for one-call compression, below ours (server/ops/ops-routes.ts)
    expect(plain.rawPayload.length).toBeGreaterThan(8192);
    const br = await built.app.inject({ method: 'GET', url: '/api/meta/entities/product', headers: { ...auth, 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('log lines are JSON with a request id, and never hold a password, a token or the JWT secret', async () => {
    lines.length = 0;
    const wrong = 'Wrong-Secret-Password-77';
    await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: wrong } });
    const ok = await built.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const token = ok.json().data.id_token as string;
    const auth = { authorization: `Bearer ${token}` };
    await built.app.inject({ method: 'GET', url: '/api/product?limit=5', headers: auth });
    await built.app.inject({ method: 'GET', url: '/api/user_account', headers: { authorization: `Bearer ${token}x` } }); // refused
    await built.app.inject({ method: 'POST', url: '/api/auth/signout', headers: auth });
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    // one line per request, each with its request id
    const requestLines = parsed.filter((p) => p.msg === 'request completed');
    expect(requestLines).toHaveLength(5);
    expect(requestLines.map((p) => p.url)).toEqual(['/api/auth/signin', '/api/auth/signin', '/api/product?limit=5', '/api/user_account', '/api/auth/signout']);
    for (const p of requestLines) expect(p.reqId, JSON.stringify(p)).toMatch(/^[0-9a-f-]{36}$/);
    for (const p of parsed.filter((p) => p.req || p.res || p.url)) expect(p.reqId, JSON.stringify(p)).toBeTruthy();
    const all = lines.join('\n');
    const secret = new TextDecoder().decode(TEST_SECRET);
    for (const forbidden of [wrong, ADMIN_PASSWORD, token, token.split('.')[2]!, secret, 'Bearer ']) expect(all).not.toContain(forbidden);
  });
});
