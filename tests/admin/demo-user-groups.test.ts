/**
 * The spec's /usergroup/{id} (issue 35 §6): the screen answered 404 because the demo business had no user
 * group to open. The demo data now has some, each readable as a record.
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { loadSeedDir } from '../../seed/demo-seed.ts';

const FILE = '295-usergroup.json';

describe.each(testDialects())('demo user groups on %s', (dialect) => {
  let t: TestApp;
  let loaded: Record<string, number>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const dir = mkdtempSync(join(tmpdir(), 'bo-demo-groups-'));
    copyFileSync(resolve(import.meta.dirname, '../../seed/demo', FILE), join(dir, FILE));
    loaded = await loadSeedDir(t.service, dir);
  });
  afterAll(async () => t?.close());

  it('are in the demo data, and each opens as a record', async () => {
    expect(loaded.usergroup).toBeGreaterThanOrEqual(3);
    const list = await t.app.inject({ method: 'GET', url: '/api/usergroup?sort=code', headers: t.headers });
    const rows = list.json().data as { id: number; code: string }[];
    expect(rows.map((r) => r.code)).toEqual(['ACCOUNTING', 'SALES', 'WAREHOUSE']);
    for (const r of rows) {
      const one = await t.app.inject({ method: 'GET', url: `/api/usergroup/${r.id}`, headers: t.headers });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().data.code).toBe(r.code);
    }
  });
});
