/**
 * Real Redis and PostgreSQL servers of the fault tests' own, on free ports, which the tests stop and
 * start (issue 36 §3): the shared ones on 5432 and 6379 serve every other test and are never touched.
 * A missing binary skips the test with the reason printed; every wait is bounded.
 */
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

const PG_BIN = process.env.PG_BIN_DIR ?? (existsSync('/usr/local/bin/initdb') ? '/usr/local/bin' : '/usr/lib/postgresql/15/bin');

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

const which = (bin: string) => spawnSync('sh', ['-c', `command -v ${bin}`]).status === 0;

/** Why the servers cannot be run here, or null when they can. */
export function missingRedis(): string | null {
  return which('redis-server') && which('redis-cli') ? null : 'redis-server or redis-cli is not installed';
}
export function missingPostgres(): string | null {
  if (!existsSync(join(PG_BIN, 'initdb')) || !existsSync(join(PG_BIN, 'pg_ctl'))) return `initdb/pg_ctl not found in ${PG_BIN} (set PG_BIN_DIR)`;
  // PostgreSQL refuses to run as root: as root, it runs as the postgres user
  if (userInfo().uid === 0 && (spawnSync('id', ['-u', 'postgres']).status !== 0 || !which('runuser'))) return 'running as root without a postgres user (or runuser) to run PostgreSQL as';
  return null;
}

async function until(what: string, ms: number, check: () => Promise<boolean> | boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A redis-server of the test's own, without persistence. */
export class OwnRedis {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  get url(): string { return `redis://127.0.0.1:${this.port}`; }

  static async start(): Promise<OwnRedis> {
    const r = new OwnRedis(await freePort());
    await r.start();
    return r;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    await until(`redis-server on ${this.port}`, 10_000, () => spawnSync('redis-cli', ['-p', String(this.port), 'ping']).stdout?.toString().trim() === 'PONG');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((ok) => child.once('exit', ok));
    child.kill('SIGKILL');
    await exited;
  }
}

/** A PostgreSQL cluster of the test's own (initdb into a temporary directory; as the postgres user when run as root). */
export class OwnPostgres {
  private constructor(readonly dir: string, readonly port: number, private readonly asUser: string | null) {}

  /** The superuser's URL for database `db`. */
  url(db = 'postgres'): string { return `postgres://postgres@127.0.0.1:${this.port}/${db}`; }

  /** Asynchronous: the server under test runs in this process, and its event loop must go on while PostgreSQL stops or starts. */
  private run(args: string[], timeoutMs: number): Promise<void> {
    const cmd = this.asUser ? ['runuser', '-u', this.asUser, '--', ...args] : args;
    return new Promise((ok, fail) => {
      execFile(cmd[0]!, cmd.slice(1), { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) fail(new Error(`${args.join(' ')} failed (${err.code ?? err.signal}): ${stderr || stdout}`)); else ok();
      });
    });
  }

  static async create(): Promise<OwnPostgres> {
    const dir = mkdtempSync(join(tmpdir(), 'bo-fault-pg-'));
    // postgres refuses to run as root
    const asUser = userInfo().uid === 0 ? 'postgres' : null;
    if (asUser) {
      const id = spawnSync('id', ['-u', asUser], { encoding: 'utf8' });
      const gid = spawnSync('id', ['-g', asUser], { encoding: 'utf8' });
      chownSync(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
    }
    const pg = new OwnPostgres(dir, await freePort(), asUser);
    await pg.run([join(PG_BIN, 'initdb'), '-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'], 60_000);
    await pg.start();
    return pg;
  }

  async start(): Promise<void> {
    const opts = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=60`;
    await this.run([join(PG_BIN, 'pg_ctl'), '-D', join(this.dir, 'data'), '-o', opts, '-l', join(this.dir, 'log'), '-w', '-t', '30', 'start'], 40_000);
  }

  /** `fast`: the way an operator's restart stops it (connections ended, transactions rolled back). */
  async stop(): Promise<void> {
    await this.run([join(PG_BIN, 'pg_ctl'), '-D', join(this.dir, 'data'), '-m', 'fast', '-w', '-t', '30', 'stop'], 40_000);
  }

  async destroy(): Promise<void> {
    try { await this.stop(); } catch { /* already stopped */ }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
