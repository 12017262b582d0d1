/**
 * Page settings reach open screens live: a save through one instance is
 * announced as `schema-changed` to sockets on that instance at once and to
 * sockets on another instance of the same database after its override poll
 * (500 ms), with no Redis between them. A socket that connects later hears
 * the current version at once, so a change saved between a screen's schema
 * load and its socket's connection is not missed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { ensureAdmin } from '../../server/auth/builtin-accounts.ts';
import { buildInstance, connected, connectSocket, EventLog, listen, tokenOf, type Instance } from '../support/crm-fixtures.ts';
import { createTestDatabase, testDialects, type TestDatabase } from '../support/test-databases.ts';
import { ADMIN_PASSWORD, TEST_HASH_LOG_N } from '../support/test-app.ts';

interface Change { version: number; entities: string[] }

describe.each(testDialects())('page settings reach open screens on every instance (%s)', (dialect) => {
  let testDb: TestDatabase;
  const instances: Instance[] = [];
  const urls: string[] = [];
  const sockets: Socket[] = [];
  let admin: Record<string, string>;

  beforeAll(async () => {
    testDb = await createTestDatabase(dialect);
    instances.push(await buildInstance(testDb.url, {}, true));
    instances.push(await buildInstance(testDb.url));
    await ensureAdmin(instances[0]!.db, instances[0]!.service, ADMIN_PASSWORD, TEST_HASH_LOG_N);
    for (const i of instances) urls.push(await listen(i.app));
    const res = await instances[0]!.app.inject({ method: 'POST', url: '/api/auth/signin', payload: { username: 'admin', password: ADMIN_PASSWORD } });
    admin = { authorization: `Bearer ${res.json().data.id_token as string}` };
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const i of instances) await i.close();
    await testDb?.drop();
  });

  it('a label saved on instance 0 reaches a socket on instance 1, and its schema answers with it', async () => {
    const logs = urls.map((u) => {
      const s = connectSocket(u, tokenOf(admin));
      sockets.push(s);
      return { socket: s, log: new EventLog<Change>(s, 'schema-changed') };
    });
    for (const l of logs) await connected(l.socket);
    const label = { th: `เหตุผล ${Date.now()}`, en: `Reason ${Date.now()}` };
    const started = Date.now();
    const put = await instances[0]!.app.inject({ method: 'PUT', url: '/api/page_setting/return_reason', headers: admin, payload: { fields: { name_th: { label } } } });
    expect(put.statusCode, put.body).toBe(200);
    const version = put.json().meta.version as number;
    const [here, there] = await Promise.all(logs.map((l) => l.log.next((c) => c.version === version, 10_000)));
    console.log(`[page settings] both instances' sockets heard the change ${Date.now() - started} ms after the save was sent`);
    expect(here!.entities).toEqual(['return_reason']);
    expect(there!.entities).toEqual(['return_reason']);
    // the other instance now serves the merged schema
    const meta = await instances[1]!.app.inject({ method: 'GET', url: '/api/meta/entities/return_reason', headers: admin });
    expect(meta.json().data.entity.fields.name_th.label).toEqual(label);
    expect(meta.json().meta.version).toBe(version);
  });

  it('a socket that connects after a change hears the current version as it connects', async () => {
    const put = await instances[0]!.app.inject({ method: 'PUT', url: '/api/page_setting/return_reason', headers: admin, payload: { page: { pageSize: 40 } } });
    expect(put.statusCode, put.body).toBe(200);
    const version = put.json().meta.version as number;
    // instance 0 saved it; instance 1 learns it by its poll
    await expect.poll(async () => (await instances[1]!.app.inject({ method: 'GET', url: '/api/meta/entities/return_reason', headers: admin })).json().meta.version).toBe(version);
    for (const u of urls) {
      const s = connectSocket(u, tokenOf(admin));
      sockets.push(s);
      const log = new EventLog<Change>(s, 'schema-changed');
      await connected(s);
      // the first event, before anything changes again
      const hello = await log.next(() => true, 10_000);
      expect(hello.version).toBe(version);
    }
    // and the language content, whose labels come from the schemas, says which version it is
    const content = await instances[0]!.app.inject({ method: 'GET', url: '/api/language/content/website_main', headers: admin });
    expect(content.json().meta.version).toBe(version);
  });
});
