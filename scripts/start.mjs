#!/usr/bin/env node
/**
 * `npm start`: builds what is missing or stale (in a child process, so this
 * process never loads tsc or Vite), then runs the compiled server here, in
 * this process: SIGINT and SIGTERM reach the server itself.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, SERVER_MAIN, serverBuildIsStale, webBuildIsStale } from './build-state.mjs';

if (serverBuildIsStale() || (await webBuildIsStale())) {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// `exec` in the npm script makes this process sh's replacement, so the SIGTERM or SIGINT npm passes on
// arrives here; should the parent die without passing it on (kill -9 npm), stop as if told to
const parent = process.ppid;
if (parent !== 1) {
  setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM'); }, 1000).unref();
}
await import(pathToFileURL(SERVER_MAIN).href);
