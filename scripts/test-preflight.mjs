#!/usr/bin/env node
// `npm test` on a fresh machine: what the tests need besides node_modules, found or set up here, then
// the type check and vitest with the tests pointed at PostgreSQL and Redis. Plain JavaScript, so it
// runs before anything is compiled.
//
//   node scripts/test-preflight.mjs            prepare, then print what it did and the variables to export
//   node scripts/test-preflight.mjs --run [f]  prepare, then type check and `vitest run [f]` (npm test)
//
// It installs missing Debian packages (Chromium for the browser tests, the Thai fonts they render with,
// poppler-utils whose pdftotext/pdftoppm read the printed PDFs back, libxml2-utils whose xmllint checks
// the e-Tax XML against ETDA's XSDs, PgBouncer for the start-lock test
// through a pooler, PostgreSQL and Redis) when it runs as root with apt; otherwise it stops at once and
// prints the one command to run. It starts PostgreSQL and Redis when installed but not running, and
// creates the `test` database (each database test makes and drops its own database from there).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { userInfo } from 'node:os';

const ROOT = resolve(import.meta.dirname, '..');
const PG_URL = process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const done = [];

const say = (m) => console.log(`[test-preflight] ${m}`);
function stop(why, command) {
  console.error(`[test-preflight] ${why}\n[test-preflight] run this, then npm test again:\n\n    ${command}\n`);
  process.exit(1);
}
/** Runs a command quietly; true when it exits 0. */
function ok(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'ignore', timeout: 60_000, ...opts });
  return r.status === 0;
}
function out(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
  return r.status === 0 ? r.stdout.trim() : null;
}
const onPath = (name) => ok('sh', ['-c', `command -v ${name}`]);
const debInstalled = (pkg) => out('dpkg-query', ['-W', '-f=${Status}', pkg])?.includes('install ok installed') ?? false;

// ---- Debian packages: what each test area needs, found by what it runs
const wanted = [
  { pkg: 'chromium', present: () => (process.env.CHROMIUM_PATH ? existsSync(process.env.CHROMIUM_PATH) : onPath('chromium')) },
  { pkg: 'fonts-thai-tlwg', present: () => (onPath('dpkg-query') ? debInstalled('fonts-thai-tlwg') : /tlwg/i.test(out('fc-list', []) ?? '')) },
  { pkg: 'poppler-utils', present: () => onPath('pdftotext') && onPath('pdftoppm') },
  // xmllint validates the e-Tax XML against ETDA's XSDs (tests/etax)
  { pkg: 'libxml2-utils', present: () => onPath('xmllint') },
  { pkg: 'pgbouncer', present: () => existsSync(process.env.PGBOUNCER_PATH || '/usr/sbin/pgbouncer') },
  { pkg: 'postgresql', present: () => onPath('pg_isready') && onPath('psql') && (existsSync('/etc/postgresql') || onPath('pg_ctl')) },
  { pkg: 'redis-server', present: () => onPath('redis-server') && onPath('redis-cli') },
];
const missing = wanted.filter((w) => !w.present()).map((w) => w.pkg);
if (missing.length) {
  const install = `apt-get install -y ${missing.join(' ')}`;
  if (!isRoot || !onPath('apt-get')) stop(`missing: ${missing.join(', ')}`, onPath('apt-get') ? `sudo sh -c 'apt-get update && ${install}'` : `install ${missing.join(', ')} with your system's package manager`);
  say(`installing ${missing.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env }).status !== 0) stop('apt-get update failed', `apt-get update && ${install}`);
  if (spawnSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env }).status !== 0) stop('apt-get install failed', install);
  done.push(`installed ${missing.join(', ')}`);
}

// ---- PostgreSQL: running on the URL's host and port, with its database
const pg = new URL(PG_URL);
const pgHost = pg.hostname || '127.0.0.1';
const pgPort = pg.port || '5432';
const pgDb = decodeURIComponent(pg.pathname.slice(1)) || 'test';
const pgReady = () => ok('pg_isready', ['-h', pgHost, '-p', pgPort, '-q']);
if (!pgReady()) {
  const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort() : [];
  const version = versions.at(-1);
  const start = version ? `pg_ctlcluster --skip-systemctl-redirect ${version} main start` : null;
  if (!start) stop(`PostgreSQL does not answer on ${pgHost}:${pgPort} and no Debian cluster was found`, 'start PostgreSQL on 127.0.0.1:5432 (or set TEST_DATABASE_URL to one that runs)');
  if (!isRoot) stop(`PostgreSQL does not answer on ${pgHost}:${pgPort}`, `sudo ${start}`);
  say(`starting PostgreSQL ${version}`);
  ok('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  for (let i = 0; i < 30 && !pgReady(); i++) spawnSync('sleep', ['1']);
  if (!pgReady()) stop(`PostgreSQL ${version} did not start`, start);
  done.push(`started PostgreSQL ${version}`);
}
const psqlArgs = (db, sql) => ['-h', pgHost, '-p', pgPort, ...(pg.username ? ['-U', decodeURIComponent(pg.username)] : []), '-d', db, '-tAc', sql];
const psqlEnv = { ...process.env, ...(pg.password ? { PGPASSWORD: decodeURIComponent(pg.password) } : {}) };
const psql = (db, sql) => {
  const r = spawnSync('psql', psqlArgs(db, sql), { encoding: 'utf8', env: psqlEnv, timeout: 60_000 });
  return { ok: r.status === 0, out: (r.stdout ?? '').trim(), err: (r.stderr ?? '').trim() };
};
let probe = psql('postgres', 'select 1');
if (!probe.ok && isRoot && !pg.username && /role .* does not exist/.test(probe.err)) {
  // a fresh Debian cluster knows only "postgres": give the user running the tests a role of its own
  const me = userInfo().username;
  if (ok('runuser', ['-u', 'postgres', '--', 'createuser', '--superuser', me])) done.push(`created the PostgreSQL role ${me}`);
  probe = psql('postgres', 'select 1');
}
if (!probe.ok) stop(`cannot connect to PostgreSQL at ${pgHost}:${pgPort}: ${probe.err.split('\n')[0]}`, `sudo -u postgres createuser --superuser ${userInfo().username}   # or set TEST_DATABASE_URL with a user and password`);
if (psql('postgres', `select 1 from pg_database where datname = '${pgDb.replace(/'/g, "''")}'`).out !== '1') {
  const made = psql('postgres', `create database "${pgDb.replace(/"/g, '""')}"`);
  if (!made.ok) stop(`cannot create the database ${pgDb}: ${made.err.split('\n')[0]}`, `createdb -h ${pgHost} -p ${pgPort} ${pgDb}`);
  done.push(`created the database ${pgDb}`);
}

// ---- Redis, for the multi-instance realtime tests
const redis = new URL(REDIS_URL);
const redisHost = redis.hostname || '127.0.0.1';
const redisPort = redis.port || '6379';
const redisUp = () => ok('redis-cli', ['-h', redisHost, '-p', redisPort, 'ping']);
if (!redisUp()) {
  const local = ['127.0.0.1', 'localhost'].includes(redisHost);
  const start = `redis-server --daemonize yes --bind 127.0.0.1 --port ${redisPort} --save "" --appendonly no`;
  if (!local) stop(`Redis does not answer on ${redisHost}:${redisPort}`, `start Redis on ${redisHost}:${redisPort} (or set TEST_REDIS_URL to one that runs)`);
  say('starting Redis');
  ok('sh', ['-c', start]);
  for (let i = 0; i < 20 && !redisUp(); i++) spawnSync('sleep', ['0.25']);
  if (!redisUp()) stop('Redis did not start', start);
  done.push(`started Redis on port ${redisPort}`);
}

const env = { ...process.env, TEST_DATABASE_URL: PG_URL, TEST_REDIS_URL: REDIS_URL };
say(done.length ? done.join('; ') : 'everything was installed and running');
say(`tests use TEST_DATABASE_URL=${PG_URL} TEST_REDIS_URL=${REDIS_URL}`);

const runAt = process.argv.indexOf('--run');
if (runAt < 0) {
  // alone: the variables for a shell that runs vitest by hand (eval "$(node scripts/test-preflight.mjs | grep ^export)")
  console.log(`export TEST_DATABASE_URL=${PG_URL}\nexport TEST_REDIS_URL=${REDIS_URL}`);
  process.exit(0);
}
const node = process.execPath;
const step = (label, args) => {
  say(label);
  const r = spawnSync(node, args, { stdio: 'inherit', env, cwd: ROOT });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
step('type check (tsc)', [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit']);
step('vitest run', [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...process.argv.slice(runAt + 1)]);
