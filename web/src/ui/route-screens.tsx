import { lazy } from 'react';
import { useParams } from 'react-router-dom';
import type { RouteEntry } from '../core/route-table.ts';
import { PortalGuard } from '../pages/portal-guard.tsx';

/** Every screen loads lazily (spec section 1); this file only maps route kinds to chunks. */
const AppShell = lazy(() => import('./AppShell.tsx'));
const SignIn = lazy(() => import('../pages/SignIn.tsx'));
const Home = lazy(() => import('../pages/Home.tsx'));
const CustomerBills = lazy(() => import('../pages/CustomerBills.tsx'));
const CustomerBill = lazy(() => import('../pages/CustomerBill.tsx'));
const EntityScreen = lazy(() => import('../renderer/EntityScreen.tsx'));
const NotAvailableYet = lazy(() => import('./NotAvailableYet.tsx'));
const NotFound = lazy(() => import('./NotFound.tsx'));
const LoadingPage = lazy(() => import('./LoadingPage.tsx'));
const ChildListPage = lazy(() => import('../pages/ChildListPage.tsx'));
const ViewRecordPage = lazy(() => import('../pages/ViewRecordPage.tsx'));
const AdminScreen = lazy(() => import('../pages/admin/AdminScreen.tsx'));

export function ShellLayout() {
  return <AppShell />;
}

export function SignInScreen({ entry }: { entry: RouteEntry }) {
  return <SignIn customer={entry.kind === 'signinCustomer'} />;
}

export function RouteScreen({ entry }: { entry: RouteEntry }) {
  switch (entry.kind) {
    case 'home': return <Home />;
    case 'customerBills': return <PortalGuard><CustomerBills /></PortalGuard>;
    case 'customerBill': return <PortalGuard><CustomerBill /></PortalGuard>;
    case 'entityList': return <EntityScreen entity={entry.entity!} mode="list" titleKey={entry.titleKey} />;
    case 'entityDetail': return <EntityScreen entity={entry.entity!} mode="detail" titleKey={entry.titleKey} />;
    case 'singleton': return <EntityScreen entity={entry.entity!} mode="singleton" titleKey={entry.titleKey} />;
    case 'loading': return <LoadingPage />;
    case 'childList': return <ChildListPage entity={entry.entity!} via={entry.via!} titleKey={entry.titleKey} />;
    case 'viewRecord': return <ViewRecordPage entity={entry.entity!} mark={entry.mark} titleKey={entry.titleKey} />;
    case 'admin': return <AdminScreen screen={entry.screen!} />;
    default: return <NotAvailableYet titleKey={entry.titleKey} />;
  }
}

export function DynamicEntityScreen({ mode }: { mode: 'list' | 'detail' }) {
  const { entity } = useParams();
  return <EntityScreen entity={entity ?? ''} mode={mode} dynamic />;
}

export function NotFoundScreen() {
  return <NotFound />;
}
