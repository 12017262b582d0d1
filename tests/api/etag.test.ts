/**
 * The language content and an entity's metadata carry an ETag, so a browser
 * that has them revalidates and gets 304 with no body while nothing changed,
 * and the new content as soon as an override changes it.
 */
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
    await saveOverrides(t.db, [{ entity: 'product', field: 'code', property: 'label', value: { th: `รหัสสินค้า ${url.length}`, en: `Product code ${url.length}` } }]);
    expect(await refreshOverrides(t.db, t.registry)).toBe(true);
    const changed = await get(url, { 'if-none-match': tag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
  });
});
