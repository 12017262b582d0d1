/**
 * The create-from screens built with this page (web/vite.config.ts writes "target/source" of every entity file's
 * `document.from[]` into index.html as `bo-create-from`): for /{target}/{source} of one the boot entry asks both
 * schemas at once and the open documents as soon as they are in, before the screen's code has loaded. The list
 * decides only those early calls; the screen itself still decides from the schemas (a path the list misses, on the
 * dev server for one, is asked for by the screen as before).
 */
let paths: Set<string> | null = null;

export function isBuiltCreateFrom(target: string, source: string): boolean {
  if (!paths) {
    try { paths = new Set(JSON.parse(document.getElementById('bo-create-from')?.textContent ?? '[]') as string[]); } catch { paths = new Set(); }
  }
  return paths.has(`${target}/${source}`);
}
