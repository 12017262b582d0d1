import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { fetchEntityMeta } from '../core/entity-meta.ts';
import { entityOfPath } from '../core/route-table.ts';
import { isBuiltReport } from '../core/built-reports.ts';
import { loadAppData, menuAtom, roleAtom, sessionExpiredAtom, settingsAtom, translationAtom, userTypeAtom } from '../core/app-data.ts';
import { sessionAtom } from '../core/session-atoms.ts';
import { connectSocket, isSocketOpen } from '../core/socket-client.ts';
import { toast } from '../core/toast-bus.ts';
import { Header } from './Header.tsx';
import { LoadingScreen } from './LoadingScreen.tsx';
import { SideMenu } from './SideMenu.tsx';
import { Toaster } from './Toaster.tsx';
import { signInPathFor } from './use-sign-out.ts';
import { recordVisit } from '../core/visit-memory.ts';
import { appStore } from '../core/app-store.ts';
import { tableViewAtom } from '../core/table-view-memory.ts';
import { prefetchList } from '../core/use-entity-list.ts';
import { listRequestOf } from '../renderer/list-request.ts';
import { takeEarlyListNote } from '../core/early-requests.ts';

// loaded when a session expires: the dialog kit is not part of the first screen
const SessionExpiredModal = lazy(() => import('./SessionExpiredModal.tsx').then((m) => ({ default: m.SessionExpiredModal })));

/** Runs `fn` once the page has had time to show its first screen: a second after, at the next idle moment. */
function afterFirstScreen(fn: () => void): void {
  const idle = () => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 1000 }) : fn());
  setTimeout(idle, 1000);
}

/** True while any of the start-up data is still loading. */
export function useAppDataLoading(): boolean {
  const parts = [useAtomValue(roleAtom), useAtomValue(userTypeAtom), useAtomValue(settingsAtom), useAtomValue(translationAtom), useAtomValue(menuAtom)];
  return parts.some((p) => p.status === 'loading');
}

/** The signed-in frame: header, role-based menu, the screen, toasts and the session-expired modal. */
export default function AppShell() {
  const session = useAtomValue(sessionAtom);
  const settings = useAtomValue(settingsAtom);
  const loading = useAppDataLoading();
  const expired = useAtomValue(sessionExpiredAtom);
  const { pathname } = useLocation();
  const { t } = useTranslation();
  // phones start with the menu closed: it opens over the screen and closes on a choice
  const narrow = () => typeof window !== 'undefined' && window.matchMedia?.('(max-width: 900px)').matches === true;
  const [menuOpen, setMenuOpen] = useState(() => !narrow());
  const loadedFor = useRef<string | null>(null);

  useEffect(() => {
    if (!session.isAuthenticated || loadedFor.current === session.id_token) return;
    loadedFor.current = session.id_token;
    // the socket (its library's code and the connection) after the first screen, not beside it: what it would tell
    // before then, the server announces again on every connect (the schema version, the settings' stamp)
    const token = session.id_token;
    afterFirstScreen(() => { if (loadedFor.current === token && !isSocketOpen()) void connectSocket(token); });
    void loadAppData(session);
    // the screen's schema is asked for with the session calls, not after them: a list or form
    // opened by URL (a reload, a link) then waits for one round trip fewer before its first row
    const entity = entityOfPath(window.location.pathname);
    // a report's path has no entity schema (core/built-reports.ts)
    if (entity && !isBuiltReport(entity)) {
      const meta = fetchEntityMeta(entity);
      meta.catch(() => undefined);
      // on a list, its first page is asked for as soon as the schema is here, not after the screen rendered
      const path = window.location.pathname.replace(/\/+$/, '');
      // (unless the boot entry already did, web/src/boot.ts)
      if (path === `/${entity}` && !takeEarlyListNote(path)) void meta.then((m) => prefetchList(listRequestOf(m, appStore.get(tableViewAtom(path))))).catch(() => undefined);
    }
  }, [session]);

  // Home's shortcuts: the screens this user opens most (kept in this browser)
  useEffect(() => { if (session.isAuthenticated) recordVisit(pathname, session.id); }, [pathname, session.isAuthenticated, session.id]);

  useEffect(() => {
    if (settings.status === 'error' && settings.error.status !== 401) toast('error', t('common.error'), settings.error.message);
  }, [settings, t]);

  if (!session.isAuthenticated) return <Navigate to={signInPathFor(pathname)} replace />;

  return (
    <div className="bo-app">
      {/* the first Tab stop: straight to the screen, past the header and the menu */}
      <a className="bo-skip-link" href="#main" onClick={(e) => { e.preventDefault(); const m = document.getElementById('main'); const f = m?.querySelector<HTMLElement>('input:not([disabled]), select, textarea, button, a[href]'); (f ?? m)?.focus(); }}>{t('app.skip_to_content')}</a>
      <Header onToggleMenu={() => setMenuOpen((o) => !o)} />
      {loading || expired ? (
        <LoadingScreen />
      ) : (
        <div className={`bo-body ${menuOpen ? 'menu-open' : 'menu-closed'}`}>
          {menuOpen && <SideMenu onNavigate={() => { if (narrow()) setMenuOpen(false); }} />}
          {menuOpen && <button type="button" className="bo-menu-backdrop" aria-label={t('common.close')} onClick={() => setMenuOpen(false)} />}
          <main className="bo-main" id="main" tabIndex={-1}>
            <Outlet />
          </main>
        </div>
      )}
      {expired && <Suspense fallback={null}><SessionExpiredModal /></Suspense>}
      <Toaster />
    </div>
  );
}
