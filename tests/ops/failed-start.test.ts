/**
 * A start that fails after the app was built (here: the demo data meets a row it would
 * duplicate) closes the app as well as the database, so nothing of it runs on in the process
 * that started it (a test runner, a supervisor that retries in-process). A database whose demo
 * data was left half loaded is refused with what to do, rather than failing on its first row.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { bootstrap, StartRefusedError } from '../../server/bootstrap.ts';
import { seedDemo } from '../../seed/demo-seeder.ts';
import { readConfig } from '../../server/config/app-config.ts';
import { createLogger } from '../../server/ops/logging.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('a start that fails after building the app', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bo-failed-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = (seed: string) => readConfig({
    DATA_DIR: dir, DATABASE_URL: join(dir, 'bo.sqlite'), PORT: '0', SEED: seed, LOG_LEVEL: 'warn', JWT_SECRET: 'j'.repeat(40),
    ADMIN_PASSWORD: 'Fail-admin-Pass-1', DEMO_PASSWORD: 'Fail-demo-Pass-1', SCHEMAS_DIR: join(ROOT, 'schemas'),
  });

  it('fails with the cause, and its app stops its background work', async () => {
    // a database whose data the demo rows collide with
    const first = await bootstrap(config('none'), { hashLogN: 10 });
    await first.db.kysely.insertInto('your_company_type').values({ code: 'TRD', name_th: 'มีอยู่แล้ว', name_en: 'Already here' }).execute();
    await first.app.close();
    await first.db.close();

    const lines: string[] = [];
    const logger = createLogger('warn', new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } }));
    await expect(bootstrap(config('demo'), { hashLogN: 10, logger, seeder: seedDemo })).rejects.toThrow(/TRD|unique|already/i);
    // the override poll (every 500 ms) of an app left open would now fail on the closed database
    await new Promise((r) => setTimeout(r, 1500));
    expect(lines.filter((l) => /refresh failed|snapshots failed/.test(l))).toEqual([]);
  }, 60_000);

  it('a database whose demo data began loading and never finished is refused with what to do, and starts with SEED=none', async () => {
    const other = join(dir, 'half.sqlite');
    const at = (seed: string) => ({ ...config(seed), databaseUrl: other });
    // the state an interrupted loading leaves: the loading's start written, part of the rows, no end
    const first = await bootstrap(at('none'), { hashLogN: 10 });
    await first.db.kysely.insertInto('schema_state').values({ key: 'demo_seeding', value: '2026-11-25T19:00:00.000Z' }).execute();
    await first.db.kysely.insertInto('your_company_type').values({ code: 'TRD', name_th: 'ธุรกิจซื้อมาขายไป', name_en: 'Trading' }).execute();
    await first.app.close();
    await first.db.close();

    const refused = bootstrap(at('demo'), { hashLogN: 10, seeder: seedDemo });
    await expect(refused).rejects.toThrow(StartRefusedError);
    await expect(refused).rejects.toThrow(/began loading into .*half\.sqlite at 2026-11-25T19:00:00.000Z and did not finish.*SEED=none.*delete .*half\.sqlite and its -wal and -shm files/);
    const asItIs = await bootstrap(at('none'), { hashLogN: 10 });
    expect(asItIs.seeded).toBeNull();
    await asItIs.app.close();
    await asItIs.db.close();
  }, 60_000);
});

