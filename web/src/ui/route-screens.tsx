import { lazy } from 'react';
import { useParams } from 'react-router-dom';
import type { RouteEntry } from '../core/route-table.ts';
import { PortalGuard } from '../pages/portal-guard.tsx';
import { SourceSwitchedOff } from '../pages/documents/SourceSwitchedOff.tsx';
import { lazyScreen } from './lazy-screen.tsx';
// not lazy: a few hundred bytes that most screens' chunks import anyway (a lazy import of it moved nothing)
import NotFound from './NotFound.tsx';
import { Spinner } from './Spinner.tsx';
import { useCan } from '../core/permissions.ts';
import { useReportNamed, type ReportSummary } from '../pages/reports/report-api.ts';
import { reportNameToAsk } from '../core/built-reports.ts';
import { EntityForm, EntityList, SingletonForm } from '../renderer/entity-parts.ts';

/**
 * Every screen loads lazily (spec section 1); this file only maps route kinds to chunks.
 * The screens a cold start most often opens (the shell, sign-in, the generic list and
 * form) can be loaded before the first render (preloadEntry), so they show without a
 * Suspense fallback; the rest load when first rendered.
 */
const AppShell = lazyScreen(() => import('./AppShell.tsx'));
const SignIn = lazyScreen(() => import('../pages/SignIn.tsx'));
const Home = lazyScreen(() => import('../pages/Home.tsx'));
const CustomerBills = lazy(() => import('../pages/CustomerBills.tsx'));
const CustomerBill = lazy(() => import('../pages/CustomerBill.tsx'));
const EntityScreen = lazyScreen(() => import('../renderer/EntityScreen.tsx'));
const NotAvailableYet = lazy(() => import('./NotAvailableYet.tsx'));
const LoadingPage = lazy(() => import('./LoadingPage.tsx'));
const ChildListPage = lazy(() => import('../pages/ChildListPage.tsx'));
const ViewRecordPage = lazy(() => import('../pages/ViewRecordPage.tsx'));
const AdminScreen = lazy(() => import('../pages/admin/AdminScreen.tsx'));
const StockScreen = lazy(() => import('../pages/stock/StockScreen.tsx'));
const RegisterPage = lazy(() => import('../pages/pos/RegisterPage.tsx'));
const CollectionSummaryPage = lazy(() => import('../pages/documents/CollectionSummaryPage.tsx'));
const ChartOfAccountsPage = lazy(() => import('../pages/accounting/ChartOfAccountsPage.tsx'));
const PageSettingScreen = lazy(() => import('../pages/page-setting/PageSettingScreen.tsx'));
// loaded ahead when the path is known to need them (App.tsx preloadRoute), each with the lazy screens it renders
// itself, so a cold report, record by sub-page path or create-from screen shows without React's 300 ms reveal throttle
const SubPageScreen = lazyScreen(async () => { const m = await import('../pages/page-setting/SubPageScreen.tsx'); await m.preloadSubPageParts(); return { default: m.default }; });
const ReportScreen = lazyScreen(() => import('../pages/reports/ReportScreen.tsx'));
const CreateFromLookup = lazyScreen(async () => { const m = await import('../pages/documents/CreateFromRoute.tsx'); await m.preloadCreateFromPage(); return { default: m.CreateFromLookup }; });

/** The code a route entry renders first, loaded ahead of the first render (App.tsx preloadRoute). */
export function preloadEntry(entry: RouteEntry | 'shell' | 'dynamicList' | 'dynamicDetail' | 'subPage' | 'report' | 'createFrom'): Promise<unknown> {
  if (entry === 'shell') return AppShell.preload();
  if (entry === 'report') return ReportScreen.preload();
  if (entry === 'createFrom') return Promise.all([CreateFromLookup.preload(), SubPageScreen.preload().then(() => import('../pages/page-setting/SubPageScreen.tsx')).then((m) => m.preloadSubPageCreateFrom())]);
  if (entry === 'subPage') return SubPageScreen.preload();
  if (entry === 'dynamicList') return Promise.all([EntityScreen.preload(), EntityList.preload()]);
  if (entry === 'dynamicDetail') return Promise.all([EntityScreen.preload(), EntityForm.preload()]);
  switch (entry.kind) {
    case 'signin': case 'signinCustomer': return SignIn.preload();
    case 'home': return Home.preload();
    case 'entityList': return Promise.all([EntityScreen.preload(), EntityList.preload()]);
    case 'entityDetail': return Promise.all([EntityScreen.preload(), EntityForm.preload()]);
    case 'singleton': return Promise.all([EntityScreen.preload(), SingletonForm.preload()]);
    default: return Promise.resolve();
  }
}

export function ShellLayout() {
  return <AppShell />;
}

export function SignInScreen({ entry }: { entry: RouteEntry }) {
  return <SignIn customer={entry.kind === 'signinCustomer'} />;
}

export function RouteScreen({ entry }: { entry: RouteEntry }) {
  switch (entry.kind) {
    case 'home': return <Home />;
    case 'customerBills': return <PortalGuard><CustomerBills entity={entry.entity!} /></PortalGuard>;
    case 'customerBill': return <PortalGuard><CustomerBill entity={entry.entity!} /></PortalGuard>;
    case 'entityList': return <EntityScreen entity={entry.entity!} mode="list" titleKey={entry.titleKey} />;
    case 'entityDetail': return <EntityDetail entry={entry} />;
    case 'singleton': return <EntityScreen entity={entry.entity!} mode="singleton" titleKey={entry.titleKey} />;
    case 'loading': return <LoadingPage />;
    case 'childList': return <ChildListPage entity={entry.entity!} via={entry.via!} titleKey={entry.titleKey} />;
    case 'viewRecord': return <ViewRecordPage entity={entry.entity!} mark={entry.mark} titleKey={entry.titleKey} />;
    case 'admin': return <AdminScreen screen={entry.screen!} entity={entry.entity} />;
    case 'stock': return <StockScreen screen={entry.screen!} entity={entry.entity} titleKey={entry.titleKey} />;
    case 'register': return <RegisterPage titleKey={entry.titleKey} />;
    case 'report':
      if (entry.screen === 'collectionSummary') return <CollectionSummaryPage titleKey={entry.titleKey} />;
      if (entry.screen === 'chartOfAccounts') return <ChartOfAccountsPage entity={entry.entity!} titleKey={entry.titleKey} />;
      return <NotAvailableYet titleKey={entry.titleKey} />;
    case 'pageSetting': return <PageSettingScreen screen={entry.screen === 'list' ? 'list' : 'editor'} />;
    default: return <NotAvailableYet titleKey={entry.titleKey} />;
  }
}

/** /{name}: a report file's screen when the server lists a report of that name (GET /api/report), else the entity's (at once when the build lists the report names). */
export function DynamicEntityScreen({ mode }: { mode: 'list' | 'detail' }) {
  const { entity } = useParams();
  // an entity's list does not wait for the report list when the build says its name is no report's
  const report = useReportNamed(mode === 'list' ? reportNameToAsk(entity) : undefined);
  if (mode === 'list' && report === undefined) return <Spinner />;
  if (mode === 'list' && report) return <ReportRoute report={report} />;
  return <EntityScreen entity={entity ?? ''} mode={mode} dynamic />;
}

/** /{name}/{id} of a report with a routeParam (/inventory_stock_balance/3), else the spec's sub-page paths. */
export function SubPageRouteScreen() {
  const { pageKey, subPageKey = '', submenuDetailId } = useParams();
  const report = useReportNamed(submenuDetailId === undefined && /^\d+$/.test(subPageKey) ? reportNameToAsk(pageKey) : undefined);
  if (report === undefined) return <Spinner />;
  if (report?.routeParam) return <ReportRoute report={report} routeId={subPageKey} />;
  return <SubPageScreen />;
}

function ReportRoute({ report, routeId }: { report: ReportSummary; routeId?: string }) {
  const canExport = useCan(report.menuKey, 'export');
  const canPrint = useCan(report.menuKey, 'print');
  return <ReportScreen key={`${report.name}/${routeId ?? ''}`} report={report} routeId={routeId} canExport={canExport} canPrint={canPrint} />;
}

export function NotFoundScreen() {
  return <NotFound />;
}

/** /{entity}/{id}, or /{target}/{source} when the word is not an id: the create-from screen the schema declares (document.from[]). */
function EntityDetail({ entry }: { entry: RouteEntry }) {
  const { id } = useParams();
  if (id !== undefined && !/^\d+$/.test(id)) return <CreateFromLookup target={entry.entity!} source={id} />;
  return <EntityScreen entity={entry.entity!} mode="detail" titleKey={entry.titleKey} />;
}
