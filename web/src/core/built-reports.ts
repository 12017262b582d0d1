/**
 * The report files built with this page (web/vite.config.ts writes their names into index.html as
 * `bo-report-names`): /{name} of one is its report screen, which has no entity schema, so the boot entry and the
 * shell ask for none (GET /api/meta/entities/{report} was a 404 in the console of every report opened cold). A
 * report file changed after the build makes the build stale (scripts/web-build.mjs); on a page without the list (the
 * dev server) every /{name} waits for GET /api/report as before.
 */
let names: Set<string> | null = null;
let listed = false;

function builtNames(): Set<string> {
  if (!names) {
    const text = document.getElementById('bo-report-names')?.textContent;
    listed = text !== undefined && text !== null;
    try { names = new Set(JSON.parse(text ?? '[]') as string[]); } catch { names = new Set(); listed = false; }
  }
  return names;
}

export function isBuiltReport(name: string): boolean {
  return builtNames().has(name);
}

/**
 * True when the page carries the build's report names (a production build; not the dev server). The web build is
 * stale, and made again by `npm start`, whenever a report file changes (scripts/web-build.mjs), so a name the list
 * does not hold is no report: its screen need not wait for GET /api/report to know that.
 */
export function reportNamesBuilt(): boolean {
  builtNames();
  return listed;
}

/** The name to look up in GET /api/report before /{name} can show: none when the build already says it is no report. */
export function reportNameToAsk(name: string | undefined): string | undefined {
  return name !== undefined && (isBuiltReport(name) || !reportNamesBuilt()) ? name : undefined;
}
