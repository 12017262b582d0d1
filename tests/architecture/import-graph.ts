/**
 * The project's import graph, read from the TypeScript sources with the
 * compiler's own pre-processor (no bundler, no madge): every relative import,
 * export-from and dynamic import() of each .ts/.tsx/.mjs file under the given
 * folders. `import type` counts too by default (as madge counts it): a loop
 * through types still ties two modules together. A loop is broken by moving
 * the shared types into a type-only module that imports neither side, or by
 * inverting the dependency (the lower module takes a callback).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dirname, '../..');
const SOURCE = /\.(ts|tsx|mjs)$/;

function walk(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Whether an import statement of `text` names only types (`import type {…}`, or every binding `type X`). */
function typeOnly(text: string, spec: string): boolean {
  const at = text.indexOf(`'${spec}'`) >= 0 ? text.indexOf(`'${spec}'`) : text.indexOf(`"${spec}"`);
  const start = Math.max(text.lastIndexOf('import', at), text.lastIndexOf('export', at));
  const statement = text.slice(start, at);
  if (/^(import|export)\s+type\b/.test(statement)) return true;
  const names = /\{([^}]*)\}/.exec(statement)?.[1];
  return !!names && /^(import|export)\s*\{/.test(statement) && names.split(',').map((n) => n.trim()).filter(Boolean).every((n) => n.startsWith('type '));
}

/** file (relative to the root) → the files it imports at run time (relative to the root). */
export function importGraph(folders: string[], withTypes = true): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((f) => walk(join(ROOT, f), []))) {
    const text = readFileSync(file, 'utf8');
    const info = ts.preProcessFile(text, true, true);
    const targets = info.importedFiles.map((i) => i.fileName).filter((spec) => spec.startsWith('.') && (withTypes || !typeOnly(text, spec)))
      .map((spec) => relative(ROOT, resolve(dirname(file), spec)));
    graph.set(relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** The import loops: each strongly connected group of more than one file (or a file importing itself), sorted. */
export function importLoops(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const loops: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const group: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); group.push(w); } while (w !== v);
      if (group.length > 1 || graph.get(v)?.includes(v)) loops.push(group.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return loops.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The graph between folders: a file directly in server/ belongs to folder "server", one in
 * server/<name>/ (or deeper) to "server/<name>"; outside server/ the top folder ("seed", "engine").
 * Arrows inside one folder are left out: only folders importing each other can make a circle here.
 */
export function folderOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] !== 'server') return parts[0]!;
  return parts.length === 2 ? 'server' : `server/${parts[1]}`;
}

export function folderGraph(graph: Map<string, string[]>, folder: (file: string) => string = folderOf): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    const a = folder(from);
    if (!out.has(a)) out.set(a, new Set());
    for (const to of targets) {
      const b = folder(to);
      if (b !== a) out.get(a)!.add(b);
      if (!out.has(b)) out.set(b, new Set());
    }
  }
  return new Map([...out].map(([k, v]) => [k, [...v].sort()]));
}

/** The files behind each arrow between two folders of a circle: what to move to break it. */
export function arrowsBetween(graph: Map<string, string[]>, folders: string[], folder: (file: string) => string = folderOf): string[] {
  const inside = new Set(folders);
  return [...graph].flatMap(([from, to]) => to.filter((t) => folder(t) !== folder(from) && inside.has(folder(from)) && inside.has(folder(t))).map((t) => `${from} → ${t}`));
}
