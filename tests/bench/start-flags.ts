import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './bench-db.ts';

/**
 * The node options `npm start` gives the server (package.json's start script,
 * `exec node [options] scripts/start.mjs`), so the benches run the process it runs.
 * `root` is another checkout's (a baseline's); one whose script names no options answers none.
 */
export function startNodeFlags(root = ROOT): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: { start?: string } }).scripts?.start ?? '';
  const m = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+scripts\/start\.mjs\b/.exec(start);
  if (!m) throw new Error(`package.json's start script is not "node [options] scripts/start.mjs": ${start}`);
  return m[1]!.trim().split(/\s+/).filter(Boolean);
}
