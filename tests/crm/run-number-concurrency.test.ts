/**
 * Run numbers stay unique and gapless when working records are created in
 * parallel: 30 concurrent injects into one app, then 30 real HTTP requests
 * spread over two server instances sharing the database (real concurrency:
 * separate connections/pools, PostgreSQL row locks or SQLite's write lock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildInstance, listen, type Instance } from '../support/crm-fixtures.ts';

const N = 30;

function seqOf(runNumber: string): { prefix: string; seq: number } {
  const m = /^(WR\d{4}-)(\d{4,})$/.exec(runNumber);
  if (!m) throw new Error(`not a working record run number: ${runNumber}`);
  return { prefix: m[1]!, seq: Number(m[2]) };
}

/** All numbers share the month prefix and form the run from..from+n-1. */
function expectGapless(numbers: string[], from: number): void {
  expect(new Set(numbers).size).toBe(numbers.length);
  const parsed = numbers.map(seqOf);
  expect(new Set(parsed.map((p) => p.prefix)).size).toBe(1);
  expect(parsed.map((p) => p.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => from + i));
}

describe.each(testDialects())('run numbers under parallel creation on %s', (dialect) => {
  let t: TestApp;
  let second: Instance | undefined;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => {
    await second?.close();
    await t?.close();
  });

  it(`${N} concurrent POST /api/working_record through inject: ${N} distinct numbers, no gaps, no errors`, async () => {
    const responses = await Promise.all(Array.from({ length: N }, (_, i) =>
      t.app.inject({ method: 'POST', url: '/api/working_record', headers: t.headers, payload: { subject: `parallel ${i}` } })));
    for (const r of responses) expect(r.statusCode, r.body).toBe(201);
    expectGapless(responses.map((r) => r.json().data.run_number as string), 1);
  });

  it(`${N} real HTTP requests spread over two server instances on the same database`, async () => {
    second = await buildInstance(t.testDb.url);
    const urls = [await listen(t.app), await listen(second.app)];
    const responses = await Promise.all(Array.from({ length: N }, async (_, i) => {
      const res = await fetch(`${urls[i % 2]}/api/working_record`, {
        method: 'POST',
        headers: { ...t.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ subject: `real parallel ${i}` }),
        signal: AbortSignal.timeout(20_000),
      });
      return { status: res.status, body: await res.text() };
    }));
    for (const r of responses) expect(r.status, r.body).toBe(201);
    expectGapless(responses.map((r) => JSON.parse(r.body).data.run_number as string), N + 1);
    // and the database agrees: 2N rows, 2N distinct numbers
    const rows = await t.db.kysely.selectFrom('working_record').select('run_number').execute();
    expectGapless(rows.map((r) => r.run_number as string), 1);
  });
});
