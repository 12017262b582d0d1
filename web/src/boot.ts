/**
 * The page's entry: a few kilobytes that run before React and the app have
 * loaded. For a signed-in session it sends the shell's start-up calls and the
 * open screen's schema at once (core/early-requests.ts keeps the answers for
 * the app), asks for a list's first page as soon as its schema is there (a
 * report's rows as soon as its definition is, a create-from screen's open
 * documents as soon as its two schemas are), and
 * preloads the code of the screens this route shows (the shell, the generic
 * list or form) beside the app's own, instead of one chunk after another.
 * Screens not opened stay unloaded.
 */
import { noteEarlyList, sendEarly } from './core/early-requests.ts';
import { isBuiltReport, reportNameToAsk } from './core/built-reports.ts';
import { applyTheme, storedTheme } from './core/theme.ts';
import { listCall } from './core/list-params.ts';
import { entityOfPath, ROUTES } from './core/route-table.ts';
import { metaCall, recordCall, reportDefinitionCall, REPORTS_CALL, startupCallsOf, SUMMARIES_CALL } from './core/startup-calls.ts';
import { isBuiltCreateFrom } from './core/built-create-from.ts';
import type { EntityMeta } from './core/entity-meta.ts';
import { firstCreateFromCalls } from './pages/documents/create-from-calls.ts';
import type { ReportSummary } from './pages/reports/report-api.ts';
import { firstReportCalls } from './pages/reports/report-request.ts';
import { readStoredSession } from './core/stored-session.ts';
import { storedLanguage } from './core/stored-language.ts';
import { storedTableView } from './core/table-view.ts';
import { listRequestOf } from './renderer/list-request.ts';

/** Screen source → its built files, written into index.html at build time (web/vite.config.ts routeChunks). */
function preloadScreens(...screens: string[]): void {
  let map: Record<string, string[]> = {};
  try { map = JSON.parse(document.getElementById('bo-route-chunks')?.textContent ?? '{}') as typeof map; } catch { /* dev server: no map */ }
  for (const href of new Set(screens.flatMap((s) => map[s] ?? []))) {
    if (document.head.querySelector(`link[href="${href}"]`)) continue;
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }
}

// the theme's file first of all: the page paints in the last session's theme, not unstyled
applyTheme(storedTheme());

const path = window.location.pathname.replace(/\/+$/, '') || '/';
const session = readStoredSession();
const signInPage = ROUTES.some((r) => r.auth === false && path.startsWith(r.path.split('/:')[0]!));

if (session.isAuthenticated && !signInPage) {
  const token = session.id_token;
  const lang = storedLanguage();
  // the calls before the code: the browser opens at most six connections to the server, and the answers take longest
  for (const call of startupCallsOf(session)) sendEarly(call, token, lang);
  const entity = entityOfPath(path);
  const report = entity !== null && isBuiltReport(entity);
  const segments = path.split('/').filter(Boolean);
  /** The screens' code to preload, once every call is sent. */
  const screens: string[] = [];
  const createFrom = entity !== null && segments.length === 2 && isBuiltCreateFrom(entity, segments[1]!);
  if (createFrom) {
    // a create-from screen (/receipt/billing_note): both schemas at once, then the parties and the open documents as
    // the screen asks for them (pages/documents/create-from-calls.ts); before, all four waited for the screen's code.
    const [target, source] = [metaCall(entity), metaCall(segments[1]!)].map((c) => sendEarly(c, token, lang)
      .then(async (res) => (res.ok ? ((await res.clone().json()) as { data: EntityMeta }).data : null)));
    const pre = Number(new URLSearchParams(window.location.search).get('source'));
    void Promise.all([target, source]).then(([t, s]) => {
      if (t && s) for (const call of firstCreateFromCalls(t, s, Number.isInteger(pre) && pre > 0 ? pre : undefined)) sendEarly(call, token, lang);
    }).catch(() => undefined);
  }
  // /{name} and /{name}/{id} may be a report's screen: the router asks the report's definition before it shows
  // either (ui/route-screens.tsx), and a two-segment path also needs the page list (SubPageScreen); asked here,
  // neither waits for the app's code (nothing is asked when the build's report names say the path is no report's,
  // core/built-reports.ts)
  const reportPath = segments.length === 1 || (segments.length === 2 && /^\d+$/.test(segments[1]!));
  if (entity && report && reportPath) {
    // a report file built with the page: its own definition, then its rows (and its chart's) as the screen asks them
    // (pages/reports/report-request.ts), not the list of every report first (docs/performance.md, Browser)
    void sendEarly(reportDefinitionCall(entity), token, lang).then(async (res) => {
      if (!res.ok) return;
      const def = ((await res.clone().json()) as { data: ReportSummary }).data;
      // /{name}/{id} is the report's only when it takes the id (routeParam); else it is a sub-page path
      if (segments.length === 2 && !def.routeParam) return;
      for (const call of firstReportCalls(def, storedTableView(path), new URLSearchParams(window.location.search), segments[1])) sendEarly(call, token, lang);
    }).catch(() => undefined);
    screens.push('src/pages/reports/ReportScreen.tsx');
  } else if (entity && reportNameToAsk(entity) !== undefined && reportPath) {
    // no report names in the page (the dev server): the router looks the name up in the report list
    void sendEarly(REPORTS_CALL, token, lang).then(async (res) => {
      if (!res.ok) return;
      const body = (await res.clone().json()) as { data?: { name?: string }[] };
      if (body.data?.some((r) => r.name === entity)) preloadScreens('src/pages/reports/ReportScreen.tsx');
    }).catch(() => undefined);
  }
  if (entity && segments.length === 2 && segments[1] !== 'create') {
    sendEarly(SUMMARIES_CALL, token, lang);
    screens.push('src/pages/page-setting/SubPageScreen.tsx');
  }
  if (report) {
    screens.push('src/ui/AppShell.tsx');
  } else if (entity && path === `/${entity}`) {
    noteEarlyList(path);
    // the first page, with the same request the list will make for its stored view
    void sendEarly(metaCall(entity), token, lang).then(async (res) => {
      if (!res.ok) return;
      const body = (await res.clone().json()) as { data: Parameters<typeof listRequestOf>[0] };
      sendEarly(listCall(listRequestOf(body.data, storedTableView(path))), token, lang);
    }).catch(() => undefined);
    screens.push('src/ui/AppShell.tsx', 'src/renderer/EntityScreen.tsx', 'src/renderer/EntityList.tsx');
  } else if (entity && new RegExp(`^/${entity}/(create|[1-9][0-9]*)$`).test(path)) {
    sendEarly(metaCall(entity), token, lang);
    // the stored record, as the form asks for it (renderer/EntityForm.tsx readRecord): the form asked only once its
    // code had loaded and rendered, one round trip after everything else
    if (segments[1] !== 'create') sendEarly(recordCall(entity, segments[1]!), token, lang);
    screens.push('src/ui/AppShell.tsx', 'src/renderer/EntityScreen.tsx', 'src/renderer/EntityForm.tsx');
  } else if (createFrom) {
    screens.push('src/ui/AppShell.tsx', 'src/pages/documents/CreateFromRoute.tsx', 'src/pages/documents/CreateFromPage.tsx');
  } else {
    screens.push('src/ui/AppShell.tsx', ...(path === '/' ? ['src/pages/Home.tsx'] : []));
  }
  // the code after every call: preloaded first, a report screen's eight files held its definition back 400 ms for
  // one of the six connections (docs/performance.md, Browser)
  preloadScreens(...screens);
}
void import('./main.tsx');
