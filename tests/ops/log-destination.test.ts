/**
 * The server's log destination (server/ops/log-destination.ts): the lines of one event-loop turn
 * go out in one synchronous write at the turn's end, in writes of whole lines of at most PIPE_BUF
 * bytes, and nothing waiting is lost when the process exits (an uncaught error included).
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { LogDestination, PIPE_BUF } from '../../server/ops/log-destination.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const turn = () => new Promise((r) => setImmediate(r));

/** A destination whose writes are recorded; `answer` decides what each write call does. */
function recorded(answer: (data: Uint8Array, call: number) => number = (d) => d.length) {
  const writes: string[] = [];
  let calls = 0;
  const dest = new LogDestination(7, (fd, data) => {
    expect(fd).toBe(7);
    const n = answer(data, calls++);
    writes.push(Buffer.from(data.subarray(0, n)).toString('utf8'));
    return n;
  });
  return { dest, writes, calls: () => calls };
}

describe('the log destination', () => {
  it('writes the lines of one turn together, at the end of the turn, and the next turn\'s apart', async () => {
    const { dest, writes } = recorded();
    dest.write('{"a":1}\n');
    dest.write('{"b":"ไทย"}\n');
    expect(writes).toEqual([]);
    await turn();
    expect(writes).toEqual(['{"a":1}\n{"b":"ไทย"}\n']);
    dest.write('{"c":3}\n');
    await turn();
    expect(writes).toEqual(['{"a":1}\n{"b":"ไทย"}\n', '{"c":3}\n']);
    await turn();
    expect(writes).toHaveLength(2);
  });

  it('never puts more than PIPE_BUF bytes in a write of several lines, and never cuts a line', async () => {
    const { dest, writes } = recorded();
    // Thai letters are 3 bytes each in UTF-8: the limit is counted in bytes, not characters
    const line = (i: number) => `{"i":${String(i).padStart(3, '0')},"msg":"${'ก'.repeat(300)}"}\n`;
    const sent = Array.from({ length: 20 }, (_, i) => line(i));
    for (const l of sent) dest.write(l);
    const long = `{"stack":"${'x'.repeat(PIPE_BUF * 2)}"}\n`;
    dest.write(long);
    dest.write(line(99));
    await turn();
    expect(writes.join('')).toBe([...sent, long, line(99)].join(''));
    for (const w of writes) {
      expect(w.endsWith('\n')).toBe(true);
      if (w !== long) expect(Buffer.byteLength(w)).toBeLessThanOrEqual(PIPE_BUF);
    }
    expect(writes).toContain(long);
    // 20 lines of 919 bytes go four to a write (five would be 4,595 bytes), then the long line alone, then the last
    expect(writes.length).toBe(7);
  });

  it('finishes a write the system took only part of, and waits out a full pipe', async () => {
    const { dest, writes, calls } = recorded((data, call) => {
      if (call === 1) throw Object.assign(new Error('full'), { code: 'EAGAIN' });
      return Math.min(data.length, 5);
    });
    dest.write('0123456789abc\n');
    dest.flushSync();
    expect(writes.join('')).toBe('0123456789abc\n');
    expect(calls()).toBe(4);
  });

  it('drops its lines when the reader is gone, and fails loudly on anything else', () => {
    const gone = recorded(() => { throw Object.assign(new Error('closed'), { code: 'EPIPE' }); });
    gone.dest.write('a\n');
    expect(() => gone.dest.flushSync()).not.toThrow();
    const bad = recorded(() => { throw Object.assign(new Error('bad descriptor'), { code: 'EBADF' }); });
    bad.dest.write('a\n');
    expect(() => bad.dest.flushSync()).toThrow(/bad descriptor/);
  });

  it('writes what waits when the process exits, also after an uncaught error', () => {
    // the server's logger (createLogger without a destination) in a process that logs and exits in the same turn
    const script = (end: string) => `import { createLogger } from './server/ops/logging.ts';
      const log = createLogger('info');
      for (let i = 0; i < 50; i++) log.info({ i }, 'line');
      ${end}`;
    for (const end of ['process.exit(0);', 'throw new Error("crash on purpose");']) {
      const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script(end)], { cwd: ROOT, encoding: 'utf8' });
      const lines = run.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { i: number; msg: string });
      expect(lines.map((l) => l.i), end).toEqual(Array.from({ length: 50 }, (_, i) => i));
    }
  });
});
