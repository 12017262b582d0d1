/**
 * A product import started through one instance is followed through another
 * (the progress screen polls whichever instance the balancer picks): with
 * Redis configured, jobs live there. Control: an instance without Redis does
 * not know the job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { Client } from '../support/security-fixtures.ts';
import { buildInstance, createCrmApp, TEST_REDIS_URL, type Instance } from '../support/crm-fixtures.ts';
import { multipart } from '../support/multipart.ts';

describe.each(testDialects())('import jobs across instances on %s', (dialect) => {
  let one: TestApp;
  let two: Instance;
  let alone: Instance;
  let c: Client;

  beforeAll(async () => {
    const redisKey = `test-import-${process.pid}-${Date.now().toString(36)}`;
    one = await createCrmApp(dialect, { redisUrl: TEST_REDIS_URL, redisKey });
    two = await buildInstance(one.testDb.url, { redisUrl: TEST_REDIS_URL, redisKey });
    alone = await buildInstance(one.testDb.url);
    c = new Client(one);
  });
  afterAll(async () => {
    await alone?.close();
    await two?.close();
    await one?.close();
  });

  const jobOn = (app: Instance['app'] | TestApp['app'], id: string, headers: Record<string, string>) => app.inject({ method: 'GET', url: `/api/product/import/${id}`, headers });

  it('an import started on instance 1 is followed to the end on instance 2, and only by its own user', async () => {
    const rows = ['code,name_th,product_class,unit,price,vat_type'];
    for (let i = 0; i < 3000; i++) rows.push(`XI-${dialect}-${i},สินค้าข้ามเครื่อง ${i},class_a,ชิ้น,${i + 1},vat7`);
    const { payload, headers } = multipart('across.csv', Buffer.from(rows.join('\n')));
    const started = await one.app.inject({ method: 'POST', url: '/api/product/import?mode=all_or_nothing', headers: { ...one.headers, ...headers }, payload });
    expect(started.statusCode, started.body).toBe(202);
    const id = started.json().data.id as string;

    let last: Record<string, unknown> = {};
    await expect.poll(async () => {
      const res = await jobOn(two.app, id, one.headers);
      expect(res.statusCode, res.body).toBe(200);
      last = res.json().data;
      return last.state;
    }, { interval: 50 }).toBe('done');
    expect(last).toMatchObject({ imported: 3000, done: 3000, valid: 3000, progress: 100 });

    // another user asking either instance is told there is no such import of theirs
    const other = await c.staff('import_watcher', { product: { view: true, edit: true } });
    for (const app of [one.app, two.app]) {
      const res = await jobOn(app, id, other.headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('NOT_FOUND');
    }
    // control: an instance without Redis keeps jobs in its own memory, so it does not know this one
    expect((await jobOn(alone.app, id, one.headers)).statusCode).toBe(404);
  }, 60_000);
});
