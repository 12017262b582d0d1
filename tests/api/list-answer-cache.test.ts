/**
 * List answers kept until a table they read changes (server/crud/list-answer-cache.ts, SQLite).
 * Whatever changes the rows under a list, the next list shows it; callers whose scope differs
 * never get each other's answer; a kept answer is compressed once. On PostgreSQL nothing is kept
 * and the same reads hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import BetterSqlite3 from 'better-sqlite3';
import { brotliDecompressSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client, idsOf, type Headers } from '../support/security-fixtures.ts';
import { ListAnswerCache } from '../../server/crud/list-answer-cache.ts';
import type { ChangeTracker } from '../../server/db/change-tracker.ts';

const ALL = { view: true, edit: true, export: true, print: true, email: true };

describe.each(testDialects())('kept list answers on %s', (dialect) => {
  let t: TestApp;
  let c: Client;
  let coA: number;
  let invA: number, invB: number;
  let stock: { id: number; headers: Headers };
  const reasons = async (query = '', headers: Headers = t.headers) => {
    const res = await c.call('GET', `/api/return_reason?sort=id${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };
  const names = async (query = '') => (await reasons(query)).json().data.map((r: { name_th: string }) => r.name_th) as string[];
  const hits = () => t.service.answers?.hits ?? 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new Client(t);
    coA = await c.company();
    invA = await c.inventory(coA);
    invB = await c.inventory(coA);
    stock = await c.staff('stock', { inventory: ALL }, { inventory: [invA] });
    for (const n of ['หนึ่ง', 'สอง']) await c.make('return_reason', { code: c.next('RR'), name_th: n });
  });
  afterAll(async () => t?.close());

  it('keeps answers on SQLite only, and hands out the same bytes again', async () => {
    expect(t.service.answers === null).toBe(dialect !== 'sqlite');
    const first = await reasons();
    const before = hits();
    const again = await reasons();
    expect(again.body).toBe(first.body);
    expect(hits() - before).toBe(dialect === 'sqlite' ? 1 : 0);
  });

  it('shows a create, an update and a delete made through the API at once', async () => {
    await names();
    const id = await c.make('return_reason', { code: c.next('RR'), name_th: 'สาม' });
    expect(await names()).toEqual(['หนึ่ง', 'สอง', 'สาม']);
    expect((await c.call('PATCH', `/api/return_reason/${id}`, t.headers, { name_th: 'สามแก้' })).statusCode).toBe(200);
    expect(await names()).toEqual(['หนึ่ง', 'สอง', 'สามแก้']);
    expect((await c.call('DELETE', `/api/return_reason/${id}`, t.headers)).statusCode).toBeLessThan(300);
    expect(await names()).toEqual(['หนึ่ง', 'สอง']);
  });

  it('keeps the total with the page, and counts a new row at once', async () => {
    const total = async () => (await reasons('&meta=total_count')).json().meta.total_count as number;
    const n = await total();
    const before = hits();
    expect(await total()).toBe(n);
    expect(hits() - before).toBe(dialect === 'sqlite' ? 1 : 0);
    const id = await c.make('return_reason', { code: c.next('RR'), name_th: 'นับ' });
    expect(await total()).toBe(n + 1);
    await c.call('DELETE', `/api/return_reason/${id}`, t.headers);
    expect(await total()).toBe(n);
  });

  it('shows a change made with SQL outside the service, and one rolled back never shows', async () => {
    await names();
    await sql`update return_reason set name_th = 'หนึ่ง (SQL)' where name_th = 'หนึ่ง'`.execute(t.db.kysely);
    expect(await names()).toEqual(['หนึ่ง (SQL)', 'สอง']);
    await expect(t.db.kysely.transaction().execute(async (trx) => {
      await sql`update return_reason set name_th = 'ไม่ได้บันทึก'`.execute(trx);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(await names()).toEqual(['หนึ่ง (SQL)', 'สอง']);
    await sql`update return_reason set name_th = 'หนึ่ง' where name_th = 'หนึ่ง (SQL)'`.execute(t.db.kysely);
    expect(await names()).toEqual(['หนึ่ง', 'สอง']);
  });

  // PostgreSQL has no file another connection could write behind the server's back
  it.skipIf(dialect !== 'sqlite')('shows a change committed by another connection to the same file (another worker, the sqlite3 shell)', async () => {
    await names();
    const other = new BetterSqlite3(t.testDb.url);
    try {
      other.prepare("update return_reason set name_th = 'สอง (อีกโปรเซส)' where name_th = 'สอง'").run();
    } finally {
      other.close();
    }
    expect(await names()).toEqual(['หนึ่ง', 'สอง (อีกโปรเซส)']);
    await sql`update return_reason set name_th = 'สอง' where name_th = 'สอง (อีกโปรเซส)'`.execute(t.db.kysely);
  });

  it('never gives a caller another scope\'s answer, and follows a change of the caller\'s allowed inventories', async () => {
    const adminIds = idsOf(await c.call('GET', '/api/inventory?sort=id', t.headers));
    expect(adminIds).toEqual(expect.arrayContaining([invA, invB]));
    expect(idsOf(await c.call('GET', '/api/inventory?sort=id', stock.headers))).toEqual([invA]);
    expect(idsOf(await c.call('GET', '/api/inventory?sort=id', t.headers))).toEqual(adminIds);
    expect((await c.call('PATCH', `/api/user_account/${stock.id}`, t.headers, { inventory_allow: [invA, invB] })).statusCode).toBe(200);
    expect(idsOf(await c.call('GET', '/api/inventory?sort=id', stock.headers))).toEqual([invA, invB]);
  });

  it('compresses a kept answer once, and its compressed bytes are the answer\'s', async () => {
    // a page large enough to be compressed (1 KB and more)
    for (let i = 0; i < 30; i++) await c.make('return_reason', { code: c.next('RR'), name_th: `เหตุผลการคืนสินค้าข้อที่ ${i}` });
    const ask = () => c.call('GET', '/api/return_reason?sort=id&limit=50', t.headers, undefined, { headers: { ...t.headers, 'accept-encoding': 'br' } });
    const plain = await reasons('&limit=50');
    const first = await ask();
    const misses = t.compression.misses;
    const second = await ask();
    expect(second.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(second.rawPayload).toString()).toBe(plain.body);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    if (dialect === 'sqlite') expect(t.compression.misses).toBe(misses);
  });
});

describe('ListAnswerCache', () => {
  const never: ChangeTracker = { mark: () => 1, reads: () => ['t'], unchangedSince: () => true };
  const statement = { sql: 'select 1', parameters: [], query: {} as never, queryId: {} as never };

  it('keeps a small answer in memory of its own, not in the block Node shares among small Buffers', () => {
    const cache = new ListAnswerCache(never, 1024 * 1024);
    const small = Buffer.from('{"success":true,"data":[]}');
    expect(small.buffer.byteLength).toBeGreaterThan(small.length);
    const found = cache.lookup([statement], 'x');
    if (!('read' in found) || !found.read) throw new Error('expected a read to keep');
    const kept = cache.set(found.read, small);
    expect(kept.equals(small)).toBe(true);
    expect(kept.buffer.byteLength).toBe(kept.length);
    expect(cache.lookup([statement], 'x')).toEqual({ answer: kept });
  });

  it('keeps answers of other frames apart, and nothing for a parameter it cannot name exactly', () => {
    const cache = new ListAnswerCache(never, 1024 * 1024);
    const found = cache.lookup([statement], 'api-list/1/50/0');
    if (!('read' in found) || !found.read) throw new Error('expected a read to keep');
    cache.set(found.read, Buffer.from('one'));
    expect('answer' in cache.lookup([statement], 'export/1/50/0')).toBe(false);
    expect(cache.lookup([{ ...statement, parameters: [new Date()] }], 'api-list/1/50/0')).toEqual({ read: null });
  });
});
