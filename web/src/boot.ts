/**
 * The page's entry: a few kilobytes that run before React and the app have
 * loaded. For a signed-in session it sends the shell's start-up calls and the
 * open screen's schema at once (core/early-requests.ts keeps the answers for
 * the app), asks for a list's first page as soon as its schema is there, and
 * preloads the code of the screens this route shows (the shell, the generic
 * list or form) beside the app's own, instead of one chunk after another.
 * Screens not opened stay unloaded.
 */
import { noteEarlyList, sendEarly } from './core/early-requests.ts';
import { isBuiltReport, reportNameToAsk } from './core/built-reports.ts';
import { applyTheme, storedTheme } from './core/theme.ts';
import { listCall } from './core/list-params.ts';
import { entityOfPath, ROUTES } from './core/route-table.ts';
import { metaCall, recordCall, REPORTS_CALL, startupCallsOf, SUMMARIES_CALL } from './core/startup-calls.ts';
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
  // /{name} and /{name}/{id} may be a report's screen: the router asks the report list before it
  // shows either (ui/route-screens.tsx), and a two-segment path also needs the page list
  // (SubPageScreen); asked here, neither waits for the app's code
  // (not when the build's report names say the path is no report's: the router does not ask then, core/built-reports.ts)
  if (entity && reportNameToAsk(entity) !== undefined && (segments.length === 1 || (segments.length === 2 && /^\d+$/.test(segments[1]!)))) {
    // the report screen's code only when the list names this path a report: a list does not load it
    if (report) preloadScreens('src/pages/reports/ReportScreen.tsx');
    void sendEarly(REPORTS_CALL, token, lang).then(async (res) => {
      if (!res.ok) return;
      const body = (await res.clone().json()) as { data?: { name?: string }[] };
      if (body.data?.some((r) => r.name === entity)) preloadScreens('src/pages/reports/ReportScreen.tsx');
    }).catch(() => undefined);
  }
  if (entity && segments.length === 2 && segments[1] !== 'create') {
    sendEarly(SUMMARIES_CALL, token, lang);
    preloadScreens('src/pages/page-setting/SubPageScreen.tsx');
  }
  if (report) {
    preloadScreens('src/ui/AppShell.tsx');
  } else if (entity && path === `/${entity}`) {
    noteEarlyList(path);
    // the first page, with the same request the list will make for its stored view
    void sendEarly(metaCall(entity), token, lang).then(async (res) => {
      if (!res.ok) return;
      const body = (await res.clone().json()) as { data: Parameters<typeof listRequestOf>[0] };
      sendEarly(listCall(listRequestOf(body.data, storedTableView(path))), token, lang);
    }).catch(() => undefined);
    preloadScreens('src/ui/AppShell.tsx', 'src/renderer/EntityScreen.tsx', 'src/renderer/EntityList.tsx');
  } else if (entity && new RegExp(`^/${entity}/(create|[1-9][0-9]*)$`).test(path)) {
    sendEarly(metaCall(entity), token, lang);
    // the stored record, as the form asks for it (renderer/EntityForm.tsx readRecord): the form asked only once its
    // code had loaded and rendered, one round trip after everything else
    if (segments[1] !== 'create') sendEarly(recordCall(entity, segments[1]!), token, lang);
    preloadScreens('src/ui/AppShell.tsx', 'src/renderer/EntityScreen.tsx', 'src/renderer/EntityForm.tsx');
  } else {
    preloadScreens('src/ui/AppShell.tsx', ...(path === '/' ? ['src/pages/Home.tsx'] : []));
  }
}
void import('./main.tsx');
