/**
 * The security headers are asked of @fastify/helmet once at start
 * (server/security-headers.ts) instead of on every request: every answer must
 * still carry exactly what the plugin, run per request, would have set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import helmet from '@fastify/helmet';
import { HELMET_OPTIONS } from '../../server/security-headers.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { Client } from '../support/security-fixtures.ts';

describe('security headers computed once', () => {
  let t: TestApp;
  let c: Client;
  let expected: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    c = new Client(t);
    // the plugin as it runs per request, on a route of its own
    const plain = Fastify({ logger: false });
    await plain.register(helmet, HELMET_OPTIONS);
    plain.get('/x', async () => ({ ok: true }));
    const res = await plain.inject({ method: 'GET', url: '/x' });
    await plain.close();
    const ordinary = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);
    expected = Object.fromEntries(Object.entries(res.headers).filter(([k]) => !ordinary.has(k)).map(([k, v]) => [k, String(v)]));
  });
  afterAll(async () => t?.close());

  it('the plugin sets a content security policy and the usual headers (so the comparison below means something)', () => {
    expect(expected['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(Object.keys(expected).length).toBeGreaterThan(8);
  });

  it.each([
    ['a list', '/api/product', 200, true],
    ['an error', '/api/product/999999', 404, true],
    ['an unknown API route', '/api/nowhere', 401, false],
    ['a page outside the API', '/nowhere', 404, false],
  ])('%s carries every header the plugin would set, with the same value', async (_what, url, status, signedIn) => {
    const res = signedIn ? await c.call('GET', url, c.admin) : await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    for (const [name, value] of Object.entries(expected)) expect(res.headers[name], name).toBe(value);
  });
});
