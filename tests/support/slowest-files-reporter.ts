import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** How many files the list names. */
const SHOWN = 10;

/**
 * Prints the ten slowest test files after the run's summary, each with the time it took and what that time
 * was (importing its modules, its tests and hooks): where to look first when the run grows past its
 * budget (CI has 20 minutes on a 2-core machine). Registered beside the default reporter in vitest.config.ts.
 */
export default class SlowestFilesReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    // a run of one or two files has its times in the default report already
    if (modules.length <= 2) return;
    const root = this.vitest?.config.root ?? process.cwd();
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      const setup = d.environmentSetupDuration + d.prepareDuration + d.setupDuration;
      return { file: relative(root, m.moduleId), total: setup + d.collectDuration + d.duration, imports: d.collectDuration, tests: d.duration };
    }).sort((a, b) => b.total - a.total).slice(0, SHOWN);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const width = Math.max(...rows.map((r) => r.file.length));
    const lines = rows.map((r, i) => `${String(i + 1).padStart(3)}. ${r.file.padEnd(width)}  ${s(r.total).padStart(8)}  (import ${s(r.imports)}, tests ${s(r.tests)})`);
    const log = (text: string) => (this.vitest ? this.vitest.logger.log(text) : console.log(text));
    log(`\n Slowest ${rows.length} test files:\n${lines.join('\n')}\n`);
  }
}
