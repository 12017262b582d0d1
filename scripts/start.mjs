#!/usr/bin/env node
/**
 * `npm start`: builds what is missing or stale (in a child process, so this
 * process never loads tsc or Vite), then runs the compiled server in a child
 * process it supervises: restarted with backoff if it dies, SIGINT and SIGTERM
 * passed on (BACKOFFICE_SUPERVISE=0: the server in this process, unsupervised).
 * On the first start of an embedded SQLite database, a child process creates
 * the tables, the accounts and the demo data first (under a temporary name,
 * moved into place when complete: scripts/first-start.mjs): the server then starts as
 * on any later day, without the garbage of loading (it held ~180 MB instead of ~115 MB).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SERVER_MAIN, serverBuildIsStale } from './build-state.mjs';
import { webBuildIsStale } from './web-build.mjs';
import { prepareFirstStart } from './first-start.mjs';

if (serverBuildIsStale() || (await webBuildIsStale(ROOT))) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// `exec` in the npm script makes this process sh's replacement, so the SIGTERM or SIGINT npm passes on
// arrives here; should the parent die without passing it on (kill -9 npm), stop as if told to
const parent = process.ppid;
if (parent !== 1) {
  setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM'); }, 1000).unref();
}
const { databaseUrlOf, sqlitePathOf } = await import(pathToFileURL(join(ROOT, 'build', 'server', 'config', 'app-config.js')).href);
const sqlite = sqlitePathOf(databaseUrlOf());
if (sqlite !== null && sqlite !== ':memory:' && !existsSync(sqlite)) {
  const status = prepareFirstStart(sqlite, (env) => spawnSync(process.execPath, [...process.execArgv, SERVER_MAIN], { stdio: 'inherit', env: { ...process.env, ...env } }).status);
  if (status !== 0) process.exit(status);
}
if (process.env.BACKOFFICE_SUPERVISE === '0') {
  await import(pathToFileURL(SERVER_MAIN).href);
} else {
  // the server in a child process this one restarts, with backoff, if it dies (scripts/supervise.mjs)
  const { supervise } = await import('./supervise.mjs');
  supervise(SERVER_MAIN);
}
