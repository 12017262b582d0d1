/**
 * The report files built with this page (web/vite.config.ts writes their names into index.html as
 * `bo-report-names`): /{name} of one is its report screen, which has no entity schema, so the boot entry and the
 * shell ask for none (GET /api/meta/entities/{report} was a 404 in the console of every report opened cold). A
 * report file added to the server after the build is not listed, and its path is treated as before.
 */
let names: Set<string> | null = null;

export function isBuiltReport(name: string): boolean {
  if (!names) {
    try { names = new Set(JSON.parse(document.getElementById('bo-report-names')?.textContent ?? '[]') as string[]); } catch { names = new Set(); }
  }
  return names.has(name);
}
