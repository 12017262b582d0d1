/**
 * The production server as `npm start` runs it (node build/scripts/server-main.js
 * with the node options of package.json's start script, after the build
 * step): the cold start to the first answered request, and resident memory
 * when idle with the demo data. Part of `npm run bench`
 * (BENCH_ONLY=server runs only this).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './bench-db.ts';
import { startNodeFlags } from './start-flags.ts';

export const TARGET_IDLE_MB = 150;
export const TARGET_COLD_START_MS = 3000;

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as { port: number }; s.close(() => ok(port)); });
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * Starts the compiled server, answers ms to its first 200 on /api/health, and its RSS after each of `idleMs` (ascending).
 * `viaStartScript`: through scripts/start.mjs, as `npm start` runs it (a new database is then prepared in a child process first).
 */
async function once(dir: string, idleMs: number[] = [], viaStartScript = false): Promise<{ firstAnswerMs: number; rssMb: number[] }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, [...startNodeFlags(), join(ROOT, viaStartScript ? 'scripts/start.mjs' : 'build/scripts/server-main.js')], {
    cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dir, DATABASE_URL: join(dir, 'lean.sqlite'), SEED: 'demo', ADMIN_PASSWORD: 'Lean-admin-Pass-1', DEMO_PASSWORD: 'Lean-demo-Pass-1', REDIS_URL: '', LOG_LEVEL: 'info' },
  });
  try {
    let firstAnswerMs = NaN;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (ok) { firstAnswerMs = performance.now() - t0; break; }
      if (performance.now() - t0 > 120_000) throw new Error('no answer within 120 s');
      await new Promise((r) => setTimeout(r, 10));
    }
    const answered = performance.now();
    const rss: number[] = [];
    for (const ms of idleMs) {
      await new Promise((r) => setTimeout(r, Math.max(0, answered + ms - performance.now())));
      rss.push(rssMb(child.pid!));
    }
    return { firstAnswerMs, rssMb: rss };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function measureLeanServer(log: (m: string) => void): Promise<string[]> {
  const built = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
  const dir = mkdtempSync(join(tmpdir(), 'bo-lean-'));
  try {
    log('production server: first start (creates the tables and loads the demo data)…');
    const first = await once(dir, [10_000], true);
    const starts = [];
    for (let i = 0; i < 3; i++) starts.push(await once(dir, i === 2 ? [10_000, 40_000] : []));
    const cold = [...starts.map((s) => s.firstAnswerMs)].sort((a, b) => a - b)[1]!;
    const [idle, settled] = starts[2]!.rssMb as [number, number];
    const verdict = (mb: number) => `target < ${TARGET_IDLE_MB} MB: ${mb < TARGET_IDLE_MB ? 'PASS' : 'MISS'}`;
    return [
      '', '== production server (node build/scripts/server-main.js, SQLite with the demo data) ==',
      `  first start through scripts/start.mjs, seeding the demo data: first answer after ${Math.round(first.firstAnswerMs)} ms, resident memory 10 s later ${first.rssMb[0]!.toFixed(0)} MB  (${verdict(first.rssMb[0]!)})`,
      `  cold start, built (median of 3): first answer after ${Math.round(cold)} ms  (target < ${TARGET_COLD_START_MS} ms: ${cold < TARGET_COLD_START_MS ? 'PASS' : 'MISS'})`,
      // V8 gives back what a start grew only when its memory reducer runs, about 25 s into an idle process
      `  resident memory, idle 10 s after start: ${idle.toFixed(0)} MB  (${verdict(idle)})`,
      `  resident memory, idle 40 s after start: ${settled.toFixed(0)} MB  (${verdict(settled)})`,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
