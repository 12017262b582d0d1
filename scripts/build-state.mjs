// What `npm start` runs and when it must be rebuilt; plain JavaScript so it runs before anything is compiled.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '..');
export const BUILD_DIR = join(ROOT, 'build');
/** The server process's entry (scripts/server-main.ts: server/main.ts with the demo data's loader handed over). */
export const SERVER_MAIN = join(BUILD_DIR, 'scripts', 'server-main.js');
export const SERVER_STAMP = join(BUILD_DIR, '.stamp');
/** Everything the compiled server depends on (schemas/screens: the declared screens are compiled in, engine/schema/declared-screens.ts). */
const SERVER_SOURCES = ['server', 'engine', 'seed', 'schemas/screens', 'scripts/server-main.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The newest modification time under a path (the server's rule below, and the web build's: scripts/web-build.mjs). */
export function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when build/ is missing or older than a source file of the server. */
export function serverBuildIsStale() {
  if (!existsSync(SERVER_STAMP) || !existsSync(SERVER_MAIN)) return true;
  const builtAt = statSync(SERVER_STAMP).mtimeMs;
  return SERVER_SOURCES.some((p) => newestMtime(join(ROOT, p)) > builtAt);
}
