import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** What each test file took in a whole run, in seconds (written by slowest-files-reporter.ts on request). */
export const DURATIONS_FILE = 'tests/support/test-durations.json';

/**
 * Starts the longest test files first. Two workers share the run's files one at a time from a queue, so a
 * long file that starts late makes the run end with one worker on it and the other idle: vitest's own
 * order on a clean clone (CI has no results cache) is by file size, which put the browser files, the
 * first-start and the print tests anywhere in the queue. Longest first leaves the short files to even out
 * the end.
 *
 * A file's time is vitest's own from an earlier run on this machine (its results cache), else the last
 * whole run's (`tests/support/test-durations.json`), else 0 (the shortest: a new file, or one under the
 * list's threshold), with file size breaking ties. The projects stay in vitest's order (isolated, then
 * shared; vitest.config.ts): a shared worker keeps its modules only while the next file is of its project.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const listed = readDurations(root);
    const seconds = new Map<TestSpecification, number>();
    const size = new Map<TestSpecification, number>();
    for (const f of files) {
      const file = relative(root, f.moduleId);
      const key = `${f.project.name}:${file}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      seconds.set(f, cached && !cached.failed && cached.duration > 0 ? cached.duration / 1000 : listed[file] ?? 0);
      size.set(f, this.ctx.cache.getFileStats(key)?.size ?? 0);
    }
    const projectRank = (f: TestSpecification) => (f.project.config.isolate ? 0 : 1);
    return [...files].sort((a, b) =>
      a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder
      || (a.project.name === b.project.name ? 0 : projectRank(a) - projectRank(b) || (a.project.name < b.project.name ? -1 : 1))
      || seconds.get(b)! - seconds.get(a)!
      || size.get(b)! - size.get(a)!);
  }
}

/** The durations file's times by file path (empty when it is missing or unreadable). */
export function readDurations(root: string): Record<string, number> {
  const path = join(root, DURATIONS_FILE);
  if (!existsSync(path)) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')).files ?? {};
  } catch {
    return {};
  }
}
