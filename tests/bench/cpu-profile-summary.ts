/**
 * Sums up .cpuprofile files (node --cpu-prof, e.g. from LOAD_CPU_PROF in
 * load-main.ts): self time by function and by file (node_modules packages
 * grouped), so where a request's CPU goes can be read at a glance.
 * Usage: npx tsx tests/bench/cpu-profile-summary.ts DIR_OR_FILE... [--top N] [--after S]
 * (--after S: only the samples taken S seconds or more after each profile began, so a
 * server's start and warm-up can be left out.)
 * Also prints inclusive time (a function and everything it called, once per sample) of our own
 * functions, which shows what a request kind costs as a whole.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }
interface Profile { nodes: Node[]; samples: number[]; timeDeltas: number[] }

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args[topAt + 1]) : 40;
const afterAt = args.indexOf('--after');
const afterUs = afterAt >= 0 ? Number(args[afterAt + 1]) * 1e6 : 0;
const inputs = args.filter((a, i) => a !== '--top' && a !== '--after' && (topAt < 0 || i !== topAt + 1) && (afterAt < 0 || i !== afterAt + 1));
const files = inputs.flatMap((p) => (statSync(p).isDirectory() ? readdirSync(p).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(p, f)) : [p]));

/** node_modules/<pkg> (or @scope/pkg), else the project-relative path. */
function place(url: string): string {
  const nm = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `npm:${nm[1]}`;
  if (!url) return '(native)';
  const m = /\/(build\/|node:)(.*)$/.exec(url);
  return m ? m[2]! : url.replace(/^file:\/\//, '');
}

const byFn = new Map<string, number>();
const byFile = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
for (const f of files) {
  const prof = JSON.parse(readFileSync(f, 'utf8')) as Profile;
  const nodes = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let clock = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    clock += dt;
    if (clock < afterUs) return;
    const n = nodes.get(id)!;
    const where = place(n.callFrame.url);
    const fn = `${n.callFrame.functionName || '(anonymous)'}  ${where}:${n.callFrame.lineNumber + 1}`;
    byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
    byFile.set(where, (byFile.get(where) ?? 0) + dt);
    total += dt;
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const cf = nodes.get(at)!.callFrame;
      if (!cf.url || /node_modules|node:/.test(cf.url)) continue;
      const key = `${cf.functionName || '(anonymous)'}  ${place(cf.url)}:${cf.lineNumber + 1}`;
      if (!seen.has(key)) { seen.add(key); inclusive.set(key, (inclusive.get(key) ?? 0) + dt); }
    }
  });
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n== ${title} (${m === inclusive ? 'inclusive' : 'self'} time, ${files.length} profile(s), ${(total / 1e6).toFixed(1)} s sampled) ==`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * v) / total).toFixed(1).padStart(5)} %  ${k}`);
};
show('by file / package', byFile);
show('by function', byFn);
show('our functions, inclusive', inclusive);
