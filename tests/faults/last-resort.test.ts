/**
 * Issue 36 §1: the last-resort handler. A rejected promise nobody awaited and a dependency's
 * connection error nobody listened to are logged, with the requests in flight, and the process
 * goes on; any other uncaught exception is logged as fatal with a clear line, and the process
 * stops gracefully and exits 1, for its supervisor to start a fresh one. A real child process.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

describe('the last-resort handler', () => {
  it('goes on after a stray rejection and a connection error, stops with exit 1 after a bug, naming the requests in flight', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'last-resort-child.ts')], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    const lines = r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { level: number; msg: string; reqIds?: string[]; err?: { message: string } });
    const msgs = lines.map((l) => l.msg);
    expect(r.status, r.stderr + r.stdout).toBe(1);
    const rejection = lines.find((l) => l.msg.startsWith('unhandled promise rejection'));
    expect(rejection).toMatchObject({ level: 50, reqIds: ['req-in-flight-1'], err: { message: 'nobody awaited this' } });
    const connection = lines.filter((l) => l.msg.startsWith('uncaught connection error'));
    expect(connection.map((l) => l.err?.message)).toEqual(['Socket closed unexpectedly', 'terminating connection due to administrator command']);
    expect(connection[0]).toMatchObject({ level: 50, reqIds: ['req-in-flight-1'] });
    expect(msgs).toContain('still serving');
    const fatal = lines.find((l) => l.level === 60);
    expect(fatal?.msg).toMatch(/uncaught exception: .*exiting 1/);
    expect(fatal).toMatchObject({ reqIds: ['req-in-flight-1'], err: { message: 'cannot read properties of undefined' } });
    expect(msgs.indexOf('graceful stop begun')).toBeGreaterThan(msgs.indexOf(fatal!.msg));
    expect(msgs).not.toContain('should never be written');
  });
});
