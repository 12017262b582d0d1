/**
 * Two server instances on one PostgreSQL database and one Redis, behind a
 * round-robin proxy that sends each request to the next instance (no sticky
 * sessions). Everything a user does must work whichever instance serves it.
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (.ci/run sets both); skipped,
 * with the reason printed, without them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { saveOverrides } from '../../server/meta/schema-overrides.ts';
import { buildInstance, connected, EventLog, listen, PDF, type Instance } from '../support/crm-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { ADMIN_PASSWORD, TEST_HASH_LOG_N } from '../support/test-app.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../support/round-robin-proxy.ts';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const missing = [!DB && 'TEST_DATABASE_URL', !REDIS && 'TEST_REDIS_URL'].filter(Boolean);
if (missing.length) console.log(`[tests] SKIPPED tests/ops/multi-instance.test.ts: ${missing.join(' and ')} not set, so two instances on PostgreSQL + Redis were NOT tested (.ci/run sets both)`);

interface Answer { status: number; backend: number; body: any }

describe.skipIf(missing.length > 0)('two instances on PostgreSQL and Redis behind a round-robin proxy', () => {
  let testDb: TestDatabase;
  let uploads: string;
  const instances: Instance[] = [];
  let proxy: RoundRobinProxy;
  const sockets: Socket[] = [];
  let admin: Record<string, string>;
  let adminId: number;

  const call = async (method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> => {
    const res = await fetch(proxy.url + path, {
      method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON */ }
    return { status: res.status, backend: Number(res.headers.get('x-backend')), body: parsed };
  };
  /** Sends harmless probes until the next request will go to instance `i`. */
  const nextGoesTo = async (i: number) => { while (proxy.next !== i) await call('GET', '/api/health'); };
  const signIn = async (username: string, password: string) => {
    const r = await call('POST', '/api/auth/signin', {}, { username, password });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return { headers: { authorization: `Bearer ${r.body.data.id_token as string}` }, backend: r.backend, id: r.body.data.user.id as number };
  };

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    uploads = mkdtempSync(join(tmpdir(), 'bo-shared-uploads-'));
    const redisKey = `test-multi-${process.pid}-${Date.now().toString(36)}`;
    for (let i = 0; i < 2; i++) instances.push(await buildInstance(testDb.url, { redisUrl: REDIS, redisKey, uploadDir: uploads }, i === 0));
    await ensureAdmin(instances[0]!.db, instances[0]!.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
    const urls = [];
    for (const inst of instances) urls.push(await listen(inst.app));
    proxy = await startRoundRobinProxy(urls);
    const s = await signIn('admin', ADMIN_PASSWORD);
    admin = s.headers;
    adminId = s.id;
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await proxy?.close();
    for (const inst of instances) await inst.close();
    await testDb?.drop();
    if (uploads) rmSync(uploads, { recursive: true, force: true });
  });

  it('the proxy really alternates: consecutive requests reach both instances', async () => {
    const backends = [];
    for (let i = 0; i < 4; i++) backends.push((await call('GET', '/api/health')).backend);
    expect(backends).toEqual([backends[0], 1 - backends[0]!, backends[0], 1 - backends[0]!]);
  });

  it('a session made on one instance works on the other', async () => {
    const s = await signIn('admin', ADMIN_PASSWORD);
    const r = await call('GET', '/api/return_reason', s.headers);
    expect(r.status).toBe(200);
    expect(r.backend).not.toBe(s.backend);
  });

  it('a sign-out on one instance is refused at once on the other', async () => {
    const s = await signIn('admin', ADMIN_PASSWORD);
    // both instances now hold this session's principal in their 5 s cache
    const warm = [await call('GET', '/api/return_reason', s.headers), await call('GET', '/api/return_reason', s.headers)];
    expect(warm.map((w) => w.status)).toEqual([200, 200]);
    expect(new Set(warm.map((w) => w.backend)).size).toBe(2);
    const out = await call('POST', '/api/auth/signout', s.headers);
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const after = [await call('GET', '/api/return_reason', s.headers), await call('GET', '/api/return_reason', s.headers)];
    expect(after.map((a) => a.status)).toEqual([401, 401]);
    expect(new Set(after.map((a) => a.backend)).size).toBe(2);
  });

  it('a write on one instance is seen by a list on the other', async () => {
    const code = `MI${Date.now().toString(36).slice(-6)}`.toUpperCase();
    const created = await call('POST', '/api/return_reason', admin, { code, name_th: 'คืนข้ามเครื่อง' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const list = await call('GET', `/api/return_reason?filter=${encodeURIComponent(JSON.stringify({ code: { _eq: code } }))}`, admin);
    expect(list.backend).not.toBe(created.backend);
    expect(list.body.data.map((r: { code: string }) => r.code)).toEqual([code]);
  });

  it('an alert created through one instance reaches a socket connected to the other', async () => {
    const socket = io(proxy.url, { auth: { token: admin.authorization!.slice(7) }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000 });
    sockets.push(socket);
    const log = new EventLog<{ notificationNumber: number }>(socket, 'update-alert-number');
    await connected(socket);
    const socketOn = proxy.upgrades.at(-1)!;
    await nextGoesTo(1 - socketOn);
    const alert = await call('POST', '/api/alert', admin, { user_id: adminId, title: 'ข้ามเครื่อง' });
    expect(alert.status, JSON.stringify(alert.body)).toBe(201);
    expect(alert.backend).not.toBe(socketOn);
    await log.next((p) => p.notificationNumber >= 1, 5000);
  });

  it('sockets use the websocket transport only: no sticky sessions needed, long-polling is refused', async () => {
    const res = await fetch(`${proxy.url}/socket.io/?EIO=4&transport=polling`);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('Transport unknown');
  });

  // how long it takes is printed, not asserted (each instance polls the version every 500 ms)
  it('a runtime schema override saved through one instance applies on the other', async () => {
    const label = { th: `แหล่งที่มา ${Date.now()}`, en: `Source ${Date.now()}` };
    const labelsNow = async () => {
      const seen = new Map<number, string>();
      while (seen.size < 2) {
        const r = await call('GET', '/api/meta/entities/source_type', admin);
        seen.set(r.backend, r.body.data.entity.label.en as string);
      }
      return [...seen.values()];
    };
    expect(await labelsNow()).not.toContain(label.en);
    // written to the database by instance 0 only, as a settings screen would; neither instance is told directly
    await saveOverrides(instances[0]!.db, [{ entity: 'source_type', field: null, property: 'label', value: label }]);
    const saved = Date.now();
    let labels = await labelsNow();
    while (labels.some((l) => l !== label.en) && Date.now() - saved < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
      labels = await labelsNow();
    }
    expect(labels).toEqual([label.en, label.en]);
    console.log(`[multi-instance] the override applied on both instances ${Date.now() - saved} ms after it was saved`);
  });

  it('a page setting saved through one instance reaches an open socket on the other', async () => {
    const socket = io(proxy.url, { auth: { token: admin.authorization!.slice(7) }, transports: ['websocket'], reconnection: false, forceNew: true, timeout: 5000 });
    sockets.push(socket);
    const log = new EventLog<{ version: number; entities: string[] }>(socket, 'schema-changed');
    await connected(socket);
    const socketOn = proxy.upgrades.at(-1)!;
    await nextGoesTo(1 - socketOn);
    const started = Date.now();
    const put = await call('PUT', '/api/page_setting/prospect_type', admin, { page: { pageSize: 30 } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.backend).not.toBe(socketOn);
    const change = await log.next((c) => c.version === put.body.meta.version, 10_000);
    expect(change.entities).toEqual(['prospect_type']);
    console.log(`[multi-instance] the socket on the other instance heard the change ${Date.now() - started} ms after the save was sent`);
  });

  it('the sign-in rate limit counts failures on both instances together', async () => {
    const username = `nobody_${Date.now().toString(36)}`;
    const tries = [];
    for (let i = 0; i < 5; i++) tries.push(await call('POST', '/api/auth/signin', {}, { username, password: 'wrong-password' }));
    expect(tries.map((t) => t.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(tries.map((t) => t.backend)).size).toBe(2);
    const refused = [await call('POST', '/api/auth/signin', {}, { username, password: 'wrong-password' }), await call('POST', '/api/auth/signin', {}, { username, password: 'wrong-password' })];
    expect(refused.map((r) => r.status)).toEqual([429, 429]);
    expect(new Set(refused.map((r) => r.backend)).size).toBe(2);
  });

  it('run numbers stay unique when creations are spread over both instances', async () => {
    const n = 24;
    const created = await Promise.all(Array.from({ length: n }, (_, i) => call('POST', '/api/working_record', admin, { subject: `spread ${i}` })));
    for (const c of created) expect(c.status, JSON.stringify(c.body)).toBe(201);
    expect(new Set(created.map((c) => c.backend)).size).toBe(2);
    const numbers = created.map((c) => c.body.data.run_number as string);
    expect(new Set(numbers).size).toBe(n);
  });

  it('a file uploaded through one instance downloads through the other (shared upload directory)', async () => {
    const form = new FormData();
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'shared.pdf');
    const up = await fetch(`${proxy.url}/api/file/upload/test`, { method: 'POST', headers: admin, body: form });
    expect(up.status, await up.clone().text()).toBe(200);
    const upBackend = Number(up.headers.get('x-backend'));
    const id = ((await up.json()) as { data: { id: string }[] }).data[0]!.id;
    await nextGoesTo(1 - upBackend);
    const down = await fetch(`${proxy.url}/api/file/${id}`, { headers: admin });
    expect(down.status).toBe(200);
    expect(Number(down.headers.get('x-backend'))).not.toBe(upBackend);
    expect(Buffer.from(await down.arrayBuffer()).equals(PDF)).toBe(true);
  });
});
