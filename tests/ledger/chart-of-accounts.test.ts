/** Issue 50 §1: a fresh database has the Thai SME chart with every posting role assigned once. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

describe.each(testDialects())('chart of accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(dialect); });
  afterAll(async () => t?.close());

  it('assigns every role of the account schema to one postable account, under a heading', async () => {
    const roles = (t.registry.get('account')!.fields.role!.options ?? []).map((o) => o.value);
    const rows = await t.db.kysely.selectFrom('account').selectAll().execute();
    for (const role of roles) {
      const hits = rows.filter((r) => r.role === role);
      expect(hits, role).toHaveLength(1);
      expect(Boolean(hits[0]!.is_group), role).toBe(false);
      const parent = rows.find((r) => r.id === hits[0]!.parent_id);
      expect(Boolean(parent?.is_group), `${role}'s heading`).toBe(true);
    }
    // every postable account says which DBD statement line it rolls up to
    expect(rows.filter((r) => !r.is_group && !r.dbd_line)).toEqual([]);
  });
});
