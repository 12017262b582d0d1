import { Suspense } from 'react';
import { Provider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, matchRoutes, RouterProvider, type RouteObject } from 'react-router-dom';
import { PrimeReactProvider } from 'primereact/api';
import { appStore } from './core/app-store.ts';
import { i18n } from './core/i18n.ts';
import { ROUTES, SPEC_SUB_PAGE_PATHS } from './core/route-table.ts';
import { Spinner } from './ui/Spinner.tsx';
import { isBuiltReport } from './core/built-reports.ts';
// features add their panels to the generic form (renderer/form/form-panels.ts)
import './pages/stock/stock-form-panels.tsx';
import './pages/documents/document-form-panels.tsx';
import './pages/etax/etax-form-panels.tsx';
import './pages/pos/pos-form-panels.tsx';
import './pages/accounting/accounting-form-panels.tsx';
import { RouteScreen, ShellLayout, SignInScreen, DynamicEntityScreen, NotFoundScreen, SubPageRouteScreen, preloadEntry } from './ui/route-screens.tsx';

interface RouteHandle { preload: () => Promise<unknown>; shell?: boolean }
const preloads = (entry: Parameters<typeof preloadEntry>[0]): RouteHandle => ({ preload: () => preloadEntry(entry), shell: entry === 'shell' });

function page(el: React.ReactNode) {
  return <Suspense fallback={<Spinner />}>{el}</Suspense>;
}

/** Builds the router from the route table: sign-in pages stand alone, everything else sits in the shell. */
export function buildRoutes(): RouteObject[] {
  const open = ROUTES.filter((r) => r.auth === false);
  const inside = ROUTES.filter((r) => r.auth !== false);
  return [
    ...open.map((r) => ({ path: r.path, element: page(<SignInScreen entry={r} />), handle: preloads(r) })),
    {
      element: page(<ShellLayout />),
      handle: preloads('shell'),
      children: [
        ...inside.map((r) => ({ path: r.path, element: page(<RouteScreen entry={r} />), handle: preloads(r) })),
        // a schema the route table does not list is still a screen
        { path: '/:entity', element: page(<DynamicEntityScreen mode="list" />), handle: preloads('dynamicList') },
        { path: '/:entity/create', element: page(<DynamicEntityScreen mode="detail" />), handle: preloads('dynamicDetail') },
        // the spec's /{pageKey}/{subPageKey}…; a two-segment path that is no such page is still /{entity}/{id}
        ...SPEC_SUB_PAGE_PATHS.map((path) => ({ path, element: page(<SubPageRouteScreen />), handle: preloads('subPage') })),
        { path: '*', element: page(<NotFoundScreen />) },
      ],
    },
  ];
}

const routes = buildRoutes();
const router = createBrowserRouter(routes);

/**
 * Loads the code of the screens this path shows before the first render
 * (main.tsx), so they render at once instead of suspending one inside the other.
 */
export async function preloadRoute(pathname: string, signedIn: boolean): Promise<void> {
  // the router matched the page's path when it was made: flattening and ranking the route table again costs the first render
  const matches = pathname === router.state.location.pathname ? router.state.matches : matchRoutes(routes, pathname) ?? [];
  // without a session the shell sends the visitor to sign in: that is the screen to load
  const inShell = matches.some((m) => (m.route.handle as RouteHandle | undefined)?.shell);
  if (inShell && !signedIn) return preloadEntry(ROUTES.find((r) => r.kind === 'signin')!).then(() => undefined);
  const first = pathname.split('/').filter(Boolean)[0];
  const last = matches.at(-1)?.params;
  const word = last?.id ?? (last?.submenuDetailId === undefined ? last?.subPageKey : undefined);
  await Promise.all([
    ...matches.map((m) => (m.route.handle as RouteHandle | undefined)?.preload()),
    // a report file's path, and /{target}/{source}: screens the route table cannot name (core/built-reports.ts)
    first && isBuiltReport(first) ? preloadEntry('report') : undefined,
    word !== undefined && word !== 'create' && !/^\d+$/.test(word) ? preloadEntry('createFrom') : undefined,
  ]);
}

export function App() {
  return (
    <Provider store={appStore}>
      <I18nextProvider i18n={i18n}>
        <PrimeReactProvider value={{ ripple: false }}>
          <RouterProvider router={router} />
        </PrimeReactProvider>
      </I18nextProvider>
    </Provider>
  );
}
