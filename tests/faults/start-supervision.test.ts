/**
 * Issue 36 §1: `npm start` supervises its single server process (scripts/supervise.mjs): a server
 * that dies is started again with a growing delay, each restart logged as a JSON line; a SIGTERM
 * to the supervisor stops the server gracefully and the supervisor exits with its code. A stand-in
 * server (tests/faults/fixtures/crashing-server.mjs) dies twice, then serves.
 */
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(import.meta.dirname, '../..');

describe('npm start\'s supervision of the server', () => {
  it('restarts a dying server with backoff, logs each restart, and passes SIGTERM on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bo-supervise-'));
    const counter = join(dir, 'runs');
    writeFileSync(counter, '0');
    const fixture = join(import.meta.dirname, 'fixtures', 'crashing-server.mjs');
    const code = `import(${JSON.stringify(join(ROOT, 'scripts', 'supervise.mjs'))}).then((m) => m.supervise(${JSON.stringify(fixture)}, { execArgv: [], firstDelayMs: 100, maxDelayMs: 1000 }))`;
    const sup = spawn(process.execPath, ['-e', code], { env: { ...process.env, CRASH_COUNTER: counter, CRASHES: '2' }, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: { msg: string; [k: string]: unknown }[] = [];
    const exited = new Promise<number | null>((ok) => sup.once('exit', (c) => ok(c)));
    try {
      await new Promise<void>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no third run within 10 s: ${JSON.stringify(lines)}`)), 10_000);
        createInterface({ input: sup.stdout! }).on('line', (l) => {
          lines.push(JSON.parse(l));
          if (lines.some((x) => x.msg === 'server run' && x.runs === 3)) { clearTimeout(timer); ok(); }
        });
      });
      const crashes = lines.filter((l) => l.msg.startsWith('the server stopped unexpectedly'));
      expect(crashes.map((c) => [c.level, c.code, c.delayMs])).toEqual([[50, 1, 100], [50, 1, 200]]);
      expect(lines.filter((l) => l.msg.startsWith('server restarted')).length).toBe(2);
      expect(lines.filter((l) => l.msg === 'server run').every((l) => l.supervised === '1')).toBe(true);
      sup.kill('SIGTERM');
      expect(await Promise.race([exited, new Promise((r) => setTimeout(() => r('still running'), 5000))])).toBe(0);
      expect(lines.at(-1)?.msg).toBe('server stopping on SIGTERM');
    } finally {
      sup.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
