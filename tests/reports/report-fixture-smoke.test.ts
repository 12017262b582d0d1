/** The fixture business builds on both dialects (every posting of the story succeeds). */
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildReportFixture } from './report-fixture.ts';

describe.each(testDialects())('report fixture on %s', (dialect) => {
  let t: TestApp;
  afterAll(async () => t?.close());
  it('builds', async () => {
    t = await createTestApp(dialect);
    const f = await buildReportFixture(t);
    expect(Object.keys(f.doc).length).toBeGreaterThan(20);
  }, 60000);
});
