#!/usr/bin/env node
/**
 * `npm run build`: compiles the server to build/ (tsc) and builds the web app
 * into web/dist (Vite, then brotli and gzip twins of every asset). Each part
 * is rebuilt only when it is missing or older than its sources; --force
 * rebuilds both; --web builds only the web app (`npm run start:dev`, which runs
 * the server from source). `npm start` runs this in a child process when
 * something is stale, so the server process itself never loads TypeScript or
 * Vite. The web build is scripts/web-build.mjs: the server never imports it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { BUILD_DIR, ROOT, SERVER_STAMP, serverBuildIsStale } from './build-state.mjs';
import { ensureWebBuilt, webBuildIsStale } from './web-build.mjs';

const log = (m) => console.log(`[build] ${m}`);
const force = process.argv.includes('--force');
const webOnly = process.argv.includes('--web');

if (!webOnly && (force || serverBuildIsStale())) {
  log('compiling the server (tsc -p tsconfig.build.json)…');
  const t0 = Date.now();
  if (force) rmSync(BUILD_DIR, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    log('tsc failed; fix the errors above (npm run typecheck shows them too)');
    process.exit(r.status ?? 1);
  }
  // data the demo seeder reads next to its code (seed/demo-seeder.ts: import.meta.dirname + 'demo')
  cpSync(join(ROOT, 'seed', 'demo'), join(BUILD_DIR, 'seed', 'demo'), { recursive: true });
  writeFileSync(SERVER_STAMP, new Date().toISOString());
  log(`server compiled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

if (force) rmSync(join(ROOT, 'web', 'dist', '.precompressed'), { force: true });
if (force || (await webBuildIsStale(ROOT))) await ensureWebBuilt(ROOT, log);
