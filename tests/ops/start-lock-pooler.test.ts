/**
 * The start lock through PgBouncer in transaction mode (docs/operations.md suggests it in front of
 * many instances). Such a pooler gives a client a server connection for one transaction only, so a
 * session's advisory lock would stay on that connection after the client left and pass to whoever
 * gets it next. The lock is held by a transaction kept open for the work, which the pooler keeps on
 * one connection. .ci/run installs PgBouncer from Debian's packages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '../support/test-databases.ts';
import { openPostgres } from '../../server/db/postgres/postgres-database.ts';
import { START_LOCK } from '../../server/db/dialect-adapter.ts';
import { sql } from 'kysely';

const PGBOUNCER = process.env.PGBOUNCER_PATH ?? '/usr/sbin/pgbouncer';

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); });
  });
}

describe.runIf(process.env.TEST_DATABASE_URL && existsSync(PGBOUNCER))('the start lock through PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let bouncer: ChildProcess;
  let dir: string;
  let url: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const target = new URL(database.url);
    const port = await freePort();
    dir = mkdtempSync(join(tmpdir(), 'bo-pgbouncer-'));
    // PgBouncer refuses to run as root; it then runs as the postgres user, which must read its files
    chmodSync(dir, 0o755);
    const user = target.username || process.env.PGUSER || userInfo().username;
    writeFileSync(join(dir, 'users.txt'), `"${user}" ""\n`, { mode: 0o644 });
    writeFileSync(join(dir, 'pgbouncer.ini'), [
      '[databases]', `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]', 'listen_addr = 127.0.0.1', `listen_port = ${port}`, 'auth_type = trust', `auth_file = ${join(dir, 'users.txt')}`,
      // each start holds a server connection for its whole run (the holder's lock transaction, the waiter's blocked
      // lock call), and the holder's work needs more: four leave the second start waiting for the lock, not for a connection
      'pool_mode = transaction', 'default_pool_size = 4', 'max_client_conn = 50', 'unix_socket_dir =', 'logfile =', 'pidfile =',
      // the pools' PG_STATEMENT_TIMEOUT_MS and PG_LOCK_TIMEOUT_MS arrive as connection parameters (docs/operations.md#database-timeouts)
      'ignore_startup_parameters = statement_timeout,lock_timeout',
    ].join('\n'), { mode: 0o644 });
    bouncer = spawn(PGBOUNCER, [...(process.getuid?.() === 0 ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    const via = new URL(database.url);
    via.port = String(port);
    via.username = user;
    url = via.toString();
    for (let i = 0; i < 100; i++) {
      const up = await new Promise<boolean>((ok) => { const s = createServer(); s.once('error', () => ok(true)); s.listen(port, '127.0.0.1', () => s.close(() => ok(false))); });
      if (up) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('PgBouncer did not start');
  });
  afterAll(async () => {
    bouncer?.kill('SIGTERM');
    if (dir) rmSync(dir, { recursive: true, force: true });
    await database?.drop();
  });

  it('two starts through the pooler take turns, and the lock is let go after each', async () => {
    const a = openPostgres(url, { transactions: 1, statements: 1 });
    const b = openPostgres(url, { transactions: 1, statements: 1 });
    try {
      const events: string[] = [];
      let waited = false;
      const first = a.alone(START_LOCK, async () => {
        events.push('a in');
        await new Promise((r) => setTimeout(r, 600));
        // the start's own work, through its pools and the pooler, while the other start waits
        await sql`select 1`.execute(a.kysely);
        events.push('a out');
      });
      await new Promise((r) => setTimeout(r, 150));
      const second = b.alone(START_LOCK, async () => { events.push('b in'); events.push('b out'); }, () => { waited = true; });
      await Promise.race([Promise.all([first, second]), new Promise((_, reject) => setTimeout(() => reject(new Error(`the starts did not both finish: ${events.join(', ')}`)), 10_000))]);
      expect(events).toEqual(['a in', 'a out', 'b in', 'b out']);
      expect(waited).toBe(true);
      // and once both are done, a third start takes the lock at once
      let third = false;
      await a.alone(START_LOCK, async () => undefined, () => { third = true; });
      expect(third).toBe(false);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});
