/**
 * GET /api/report/{name}/definition: one report's definition, what GET /api/report lists of it, so a report screen
 * opened cold asks for a few KB instead of every report's (issue 48 §1). Permission-checked like the report's rows
 * (403 with the report named, in Thai when asked in Thai), and revalidated like the other meta answers (ETag, 304).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, expectError, type Headers } from '../support/security-fixtures.ts';

describe.each(testDialects())('a report definition on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let viewer: Headers;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    viewer = (await c.staff('viewer', { stock_balance_all: { view: true } })).headers;
  }, 120_000);
  afterAll(async () => t?.close());

  it('is the entry of the report list, for a role that may view the report', async () => {
    const list = (await c.call('GET', '/api/report', viewer)).json().data as { name: string }[];
    const res = await c.call('GET', '/api/report/stock_balance_all/definition', viewer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(list.find((r) => r.name === 'stock_balance_all'));
    // a few KB against the whole list's
    expect(res.body.length * 5).toBeLessThan((await c.call('GET', '/api/report', c.admin)).body.length);
  });

  it('answers 304 to the validator it gave, and the same validator to every role that sees the same definition', async () => {
    const first = await c.call('GET', '/api/report/stock_balance_all/definition', c.admin);
    const tag = first.headers.etag as string;
    expect(tag).toMatch(/^W\/".+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await c.call('GET', '/api/report/stock_balance_all/definition', { ...c.admin, 'if-none-match': tag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await c.call('GET', '/api/report/stock_balance_all/definition', viewer)).headers.etag).toBe(tag);
    const other = await c.call('GET', '/api/report/stock_movement/definition', { ...c.admin, 'if-none-match': tag });
    expect(other.statusCode).toBe(200);
  });

  it('a role without the report gets 403, with the report named in Thai', async () => {
    const res = await c.call('GET', '/api/report/stock_balance_class_a/definition', { ...viewer, 'accept-language': 'th' });
    expectError(res, 403, 'FORBIDDEN');
    const message = res.json().error.message as string;
    expect(message).toMatch(/[\u0E00-\u0E7F]/);
    expect(message).toContain('ไม่มีสิทธิ์ดูรายงาน');
    const label = ((await c.call('GET', '/api/report/stock_balance_class_a/definition', c.admin)).json().data as { label: { th: string } }).label.th;
    expect(message).toContain(label);
    // no validator on a refusal: nothing of the report is given away
    expect(res.headers.etag).toBeUndefined();
  });

  it('an unknown report is 404, and no session is 401', async () => {
    expectError(await c.call('GET', '/api/report/no_such_report/definition', c.admin), 404, 'NOT_FOUND');
    expect((await c.call('GET', '/api/report/stock_balance_all/definition', null)).statusCode).toBe(401);
  });
});
