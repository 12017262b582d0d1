/**
 * EntityService.beforeCommit: work a listener leaves for the end of the
 * write's transaction (the stock ledger's balance writes, whose row locks
 * other postings wait for). It runs after the rest of the write, in the
 * order asked, inside the transaction: a failing step rolls everything back.
 * Outside a transaction of the service it runs at once, so nothing asked of
 * it is ever dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';

describe.each(testDialects())('steps left for the end of a write on %s', (dialect) => {
  let t: TestApp;
  const entity = () => t.service.entity('return_reason');
  const rows = async () => (await t.db.kysely.selectFrom('probe').select('v').orderBy('id').execute()).map((r) => r.v);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await sql`create table probe (id integer primary key, v text not null)`.execute(t.db.kysely);
  });
  afterAll(async () => t?.close());

  it('runs the steps after the work, in the order asked, a step\'s own step after them', async () => {
    await sql`delete from probe`.execute(t.db.kysely);
    const order: string[] = [];
    const answer = await t.service.transaction(entity(), async (trx) => {
      await t.service.beforeCommit(trx, async () => {
        order.push('first step');
        await trx.insertInto('probe').values({ id: 2, v: 'first step' }).execute();
        await t.service.beforeCommit(trx, async () => { order.push('asked by the first'); });
      });
      await t.service.beforeCommit(trx, async () => { order.push('second step'); });
      await trx.insertInto('probe').values({ id: 1, v: 'work' }).execute();
      order.push('work');
      return 'answer';
    });
    expect(answer).toBe('answer');
    expect(order).toEqual(['work', 'first step', 'second step', 'asked by the first']);
    expect(await rows()).toEqual(['work', 'first step']);
  });

  it('rolls back the whole write when a step fails', async () => {
    await sql`delete from probe`.execute(t.db.kysely);
    await expect(t.service.transaction(entity(), async (trx) => {
      await trx.insertInto('probe').values({ id: 1, v: 'work' }).execute();
      await t.service.beforeCommit(trx, async () => { throw new Error('refused at the end'); });
    })).rejects.toThrow('refused at the end');
    expect(await rows()).toEqual([]);
  });

  it('runs a step at once outside a transaction of the service', async () => {
    await sql`delete from probe`.execute(t.db.kysely);
    await t.db.kysely.transaction().execute(async (trx) => {
      await t.service.beforeCommit(trx, async () => { await trx.insertInto('probe').values({ id: 1, v: 'at once' }).execute(); });
      expect((await trx.selectFrom('probe').select('v').execute()).map((r) => r.v)).toEqual(['at once']);
    });
    expect(await rows()).toEqual(['at once']);
  });
});
