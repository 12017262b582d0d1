/**
 * The benches start the server with the node options of package.json's start
 * script (tests/bench/start-flags.ts), so what they measure is what `npm start` runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeFlags } from '../bench/start-flags.ts';

describe('the start script\'s node options', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
  const checkout = (start: string) => {
    const d = mkdtempSync(join(tmpdir(), 'bo-start-'));
    dirs.push(d);
    writeFileSync(join(d, 'package.json'), JSON.stringify({ scripts: { start } }));
    return d;
  };

  it('are read from this project: the young generation is capped, and V8 favours memory over speed', () => {
    expect(startNodeFlags()).toContain('--max-semi-space-size=8');
    // an XLSX export of 100,000 rows stays under 200 MB resident with it (docs/performance.md, reports)
    expect(startNodeFlags()).toContain('--optimize-for-size');
  });

  it('are none for a script without options, several when given, and a script of another shape is refused', () => {
    expect(startNodeFlags(checkout('exec node scripts/start.mjs'))).toEqual([]);
    expect(startNodeFlags(checkout('exec node --max-semi-space-size=4 --no-warnings scripts/start.mjs'))).toEqual(['--max-semi-space-size=4', '--no-warnings']);
    expect(() => startNodeFlags(checkout('tsx server/main.ts'))).toThrow(/start script/);
  });
});
