/**
 * Rules read from the text of the sources, where the import graph cannot see them (issue 46 §3):
 * a branch on the database kind, and a dynamic import whose path is computed at run time.
 * Each rule is a function of one file's text, so its own test can feed it a made-up source.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './import-graph.ts';

/** The non-test .ts sources under a folder, relative to the project root. */
export function sourcesUnder(folder: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, folder));
  return out.sort();
}

export const readSource = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/**
 * What a test of the database kind looks like: the adapter's or a dialect's name compared or
 * switched on, a comparison with the name 'postgres', the Kysely handle asked which dialect it
 * talks to (`onPostgres`, `instanceof PostgresAdapter`). A comparison with 'sqlite' alone is not
 * one: that is also the backup file format (a file that is a SQLite database).
 */
const DIALECT_TESTS = [
  /\b(adapter\.name|dialect|dialectName)\s*[!=]==?/,
  /[!=]==?\s*(adapter\.name|\w*\.?dialect)\b/,
  /[!=]==?\s*['"`]postgres(ql)?['"`]/,
  /['"`]postgres(ql)?['"`]\s*[!=]==?/,
  /\bswitch\s*\(\s*[\w.]*(adapter\.name|dialect)\s*\)/,
  /\bonPostgres\s*\(/,
  /\binstanceof\s+(Postgres|Sqlite)(Adapter|Dialect|Driver)\b/,
];

/** The lines (1-based) of a source that branch on the database kind; comments are not code. */
export function dialectBranches(source: string): number[] {
  const hits: number[] = [];
  for (const [i, raw] of source.split('\n').entries()) {
    const line = raw.replace(/\/\/.*$/, '').trim();
    if (line.startsWith('*') || line.startsWith('/*')) continue;
    if (DIALECT_TESTS.some((re) => re.test(line))) hits.push(i + 1);
  }
  return hits;
}

/**
 * The dynamic imports of a source whose path is computed (not a plain string literal) in a file
 * that names the scripts/ folder in a string: a run-time arrow into scripts/ that the import graph
 * (which reads only literal paths) cannot see. Answers the lines (1-based).
 */
export function computedImportsIntoScripts(source: string): number[] {
  if (!/['"`/]scripts['"`/]/.test(source)) return [];
  const hits: number[] = [];
  for (const [i, line] of source.split('\n').entries()) {
    for (const m of line.matchAll(/\bimport\s*\(\s*(.)/g)) {
      const first = m[1]!;
      const literal = (first === "'" || first === '"') || (first === '`' && !/^`[^`]*\$\{/.test(line.slice(m.index! + m[0].length - 1)));
      if (!literal) hits.push(i + 1);
    }
  }
  return hits;
}
