import { Suspense } from 'react';
import { Provider } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { PrimeReactProvider } from 'primereact/api';
import { appStore } from './core/app-store.ts';
import { i18n } from './core/i18n.ts';
import { ROUTES } from './core/route-table.ts';
import { Spinner } from './ui/Spinner.tsx';
import { RouteScreen, ShellLayout, SignInScreen, DynamicEntityScreen, NotFoundScreen } from './ui/route-screens.tsx';

function page(el: React.ReactNode) {
  return <Suspense fallback={<Spinner />}>{el}</Suspense>;
}

/** Builds the router from the route table: sign-in pages stand alone, everything else sits in the shell. */
export function buildRoutes(): RouteObject[] {
  const open = ROUTES.filter((r) => r.auth === false);
  const inside = ROUTES.filter((r) => r.auth !== false);
  return [
    ...open.map((r) => ({ path: r.path, element: page(<SignInScreen entry={r} />) })),
    {
      element: page(<ShellLayout />),
      children: [
        ...inside.map((r) => ({ path: r.path, element: page(<RouteScreen entry={r} />) })),
        // a schema the route table does not list is still a screen
        { path: '/:entity', element: page(<DynamicEntityScreen mode="list" />) },
        { path: '/:entity/create', element: page(<DynamicEntityScreen mode="detail" />) },
        { path: '/:entity/:id', element: page(<DynamicEntityScreen mode="detail" />) },
        { path: '*', element: page(<NotFoundScreen />) },
      ],
    },
  ];
}

const router = createBrowserRouter(buildRoutes());

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
