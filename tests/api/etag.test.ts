/**
 * The language content and an entity's metadata carry an ETag, so a browser
 * that has them revalidates and gets 304 with no body while nothing changed,
 * and the new content as soon as an override changes it.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { refreshOverrides, saveOverrides } from '../../server/meta/schema-overrides.ts';

describe.each(testDialects())('ETags on cacheable session answers (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(dialect); });
  afterAll(async () => t?.close());

  const get = (url: string, extra: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers: { ...t.headers, 'accept-encoding': 'gzip', ...extra } });

  it.each(['/api/language/content/website_main', '/api/meta/entities/product'])('%s answers 304 for the same content, 200 when it changed', async (url) => {
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    const tag = String(first.headers.etag);
    expect(tag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toContain('no-cache');
    const again = await get(url, { 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // an override (a new label) changes the content, so the old tag no longer matches
    const version = await saveOverrides(t.db, [{ entity: 'product', field: 'code', property: 'label', value: { th: `รหัสสินค้า ${url.length}`, en: `Product code ${url.length}` } }]);
    // the app's own poll (every 500 ms) may load the version first, so the check is the registry's version, not this call's answer
    await refreshOverrides(t.db, t.registry);
    expect(t.registry.version).toBe(version);
    const changed = await get(url, { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
  });

  it('the language content (prepared once per version) decodes to the same JSON in brotli, gzip and none', async () => {
    const br = await get('/api/language/content/website_main', { 'accept-encoding': 'gzip, deflate, br' });
    const gz = await get('/api/language/content/website_main', { 'accept-encoding': 'gzip' });
    const plain = await get('/api/language/content/website_main', { 'accept-encoding': 'br;q=0, identity' });
    expect([br.headers['content-encoding'], gz.headers['content-encoding'], plain.headers['content-encoding']]).toEqual(['br', 'gzip', undefined]);
    const body = plain.json() as { data: { detail_key: string }[] };
    expect(body.data.some((r) => r.detail_key === 'field.product.code')).toBe(true);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(body);
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(body);
    expect(new Set([br.headers.etag, gz.headers.etag, plain.headers.etag]).size).toBe(1);
  });
});
