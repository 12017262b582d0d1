import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';
import { DURATIONS_FILE, readDurations } from './longest-first-sequencer.ts';

/** How many files the list names. */
const SHOWN = 10;
/** Files shorter than this are left out of the durations file (the sequencer starts unlisted files last). */
const LISTED_FROM_SECONDS = 2;

/**
 * Updates the durations file with this run's files (a run of some files keeps the others' earlier times).
 * Times are what a file took in a whole run, with the other worker busy beside it.
 */
function writeDurations(root: string, rows: Array<{ file: string; total: number }>): void {
  const files: Record<string, number> = { ...readDurations(root) };
  for (const r of rows) {
    if (r.total >= LISTED_FROM_SECONDS * 1000) files[r.file] = Math.round(r.total / 100) / 10;
    else delete files[r.file];
  }
  const sorted = Object.fromEntries(Object.entries(files).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  const note = `seconds per test file (its imports and tests), files under ${LISTED_FROM_SECONDS} s left out: longest-first-sequencer.ts starts the longest first; BO_TEST_DURATIONS=write npm test updates it`;
  writeFileSync(join(root, DURATIONS_FILE), `${JSON.stringify({ note, files: sorted }, null, 1)}\n`);
}

/**
 * Prints the ten slowest test files after the run's summary, each with the time it took and what that time
 * was (importing its modules, its tests and hooks): where to look first when the run grows past its
 * budget (CI has 20 minutes on a 2-core machine). Registered beside the default reporter in vitest.config.ts.
 *
 * With `BO_TEST_DURATIONS=write`, a run of the whole suite also writes every file's time to
 * tests/support/test-durations.json, which longest-first-sequencer.ts orders the next runs by (commit it
 * when the slow files change).
 */
export default class SlowestFilesReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const root = this.vitest?.config.root ?? process.cwd();
    const all = modules.map((m) => {
      const d = m.diagnostic();
      const setup = d.environmentSetupDuration + d.prepareDuration + d.setupDuration;
      return { file: relative(root, m.moduleId), total: setup + d.collectDuration + d.duration, imports: d.collectDuration, tests: d.duration };
    }).sort((a, b) => b.total - a.total);
    if (process.env.BO_TEST_DURATIONS === 'write') writeDurations(root, all);
    // a run of one or two files has its times in the default report already
    if (modules.length <= 2) return;
    const rows = all.slice(0, SHOWN);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const width = Math.max(...rows.map((r) => r.file.length));
    const lines = rows.map((r, i) => `${String(i + 1).padStart(3)}. ${r.file.padEnd(width)}  ${s(r.total).padStart(8)}  (import ${s(r.imports)}, tests ${s(r.tests)})`);
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text));
    log(`\n Slowest ${rows.length} test files:\n${lines.join('\n')}\n`);
  }
}
