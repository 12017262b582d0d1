/**
 * The write events of the generic service (server/crud/write-events.ts): a listener registers
 * for the entities whose schema declares what it handles, and is handed only their writes; the
 * one row of a single-row entity (kind "singleton"), read once per transaction, is read again
 * after that transaction writes it, whatever the entity is called (the service names none).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { label, tempSchemasDir } from '../support/temp-schemas.ts';
import { WriteEvents } from '../../server/crud/write-events.ts';
import { readSingleRowOnce } from '../../server/crud/single-row-reads.ts';
import { systemContext } from '../../server/crud/access-policy.ts';
import type { WriteEvent } from '../../server/crud/access-policy.ts';

const schemas = [
  { name: 'shop_prefs', label: label('Shop preferences'), kind: 'singleton', titleField: 'note', fields: { note: { type: 'string', label: label('Note'), default: 'first' } } },
  { name: 'probe_item', label: label('Probe item'), kind: 'master', titleField: 'name', fields: { name: { type: 'string', label: label('Name'), required: true } } },
];

describe.each(testDialects())('write events on %s', (dialect) => {
  let t: TestApp;
  const folder = tempSchemasDir(schemas, true);
  const note = (trx: Kysely<any>) => async () => String((await trx.selectFrom('shop_prefs').select('note').orderBy('id').limit(1).executeTakeFirstOrThrow()).note);

  beforeAll(async () => {
    t = await createTestApp(dialect, folder.dir);
    if (!(await t.db.kysely.selectFrom('shop_prefs').select('id').executeTakeFirst())) await t.service.create('shop_prefs', {}, systemContext);
  });
  afterAll(async () => {
    await t?.close();
    folder.remove();
  });

  it('hands a write only to the listeners whose selector picks its entity from its schema', async () => {
    const singles: string[] = [];
    const all: string[] = [];
    t.service.onWrite(async (_trx, e) => { singles.push(e.entity); }, (entity) => entity.kind === 'singleton');
    t.service.onWrite(async (_trx, e) => { all.push(e.entity); });
    const item = await t.service.create('probe_item', { name: 'one' }, systemContext);
    const prefs = await t.db.kysely.selectFrom('shop_prefs').select('id').executeTakeFirstOrThrow();
    await t.service.update('shop_prefs', Number(prefs.id), { note: 'kept' }, systemContext, 'patch');
    await t.service.update('probe_item', Number(item.id), { name: 'two' }, systemContext, 'patch');
    expect(singles).toEqual(['shop_prefs']);
    expect(all).toEqual(['probe_item', 'shop_prefs', 'probe_item']);
  });

  it('reads a single-row entity again after the transaction wrote it, and only then', async () => {
    const events = new WriteEvents(t.service);
    const seen: string[] = [];
    events.onWrite(async (trx) => { seen.push(await readSingleRowOnce(trx, 'shop_prefs', note(trx))); });
    const prefs = t.service.entity('shop_prefs');
    const id = Number((await t.db.kysely.selectFrom('shop_prefs').select('id').executeTakeFirstOrThrow()).id);
    const event = (entity: string): WriteEvent => ({ entity, id, action: 'update', before: null, after: null, ctx: systemContext });
    await t.db.kysely.updateTable('shop_prefs').set({ note: 'first' }).execute();
    await events.transaction(prefs, async (trx) => {
      expect(await readSingleRowOnce(trx, 'shop_prefs', note(trx))).toBe('first');
      await trx.updateTable('shop_prefs').set({ note: 'second' }).execute();
      // kept for the transaction: a write of another entity does not make it read again
      await events.emit(trx, event('probe_item'));
      // the write of the single-row entity itself does
      await events.emit(trx, event('shop_prefs'));
    });
    expect(seen).toEqual(['first', 'second']);
  });
});
