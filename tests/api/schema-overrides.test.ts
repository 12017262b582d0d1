import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { refreshOverrides, saveOverrides } from '../../server/meta/schema-overrides.ts';

describe.each(testDialects())('runtime schema overrides (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(dialect); });
  afterAll(async () => t?.close());

  it('merges stored overrides over the file schema and serves them after the version moves', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/meta/entities/return_reason', headers: t.headers });
    expect(before.json().data.entity.label.en).not.toBe('Why it came back');
    const version = await saveOverrides(t.db, [
      { entity: 'return_reason', field: null, property: 'label', value: { th: 'เหตุผลที่คืน', en: 'Why it came back' } },
      { entity: 'return_reason', field: 'note', property: 'required', value: true },
    ]);
    // the app's own poll (every 500 ms) may load the version first, so the check is the registry's version, not this call's answer
    await refreshOverrides(t.db, t.registry);
    expect(t.registry.version).toBe(version);
    const after = await t.app.inject({ method: 'GET', url: '/api/meta/entities/return_reason', headers: t.headers });
    expect(after.json().data.entity.label.en).toBe('Why it came back');
    expect(after.json().meta.version).toBe(version);
    // the file schema itself is untouched
    expect(t.registry.fileSchema('return_reason')!.label.en).not.toBe('Why it came back');
    // a second refresh at the same version does nothing
    expect(await refreshOverrides(t.db, t.registry)).toBe(false);
  });

  it('validates with the overridden rules (required now applies)', async () => {
    const fields = Object.keys(t.registry.get('return_reason')!.fields);
    expect(fields).toContain('note');
    const res = await t.app.inject({ method: 'POST', url: '/api/return_reason', headers: t.headers, payload: { code: 'RX1', name_th: 'ทดสอบ' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.fields).toContainEqual(expect.objectContaining({ field: 'note', message: 'is required' }));
  });
});
