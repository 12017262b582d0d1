import { lazy, Suspense } from 'react';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import './admin-i18n.ts';
import './admin.css';

/** The admin, account and utility screens, each its own lazily loaded chunk; an editor of an entity is told which (its route's `entity` in schemas/screens/screens.json). */
const SCREENS = {
  role: lazy(() => import('./RoleEditor.tsx')),
  userType: lazy(() => import('./UserTypeEditor.tsx')),
  userAccount: lazy(() => import('./UserAccountEditor.tsx')),
  accountEdit: lazy(() => import('./AccountEdit.tsx')),
  logDays: lazy(() => import('./SystemLogDays.tsx')),
  logDay: lazy(() => import('./SystemLogDay.tsx')),
  logEntry: lazy(() => import('./SystemLogEntry.tsx')),
  dbManage: lazy(() => import('./DbManage.tsx')),
  testUpload: lazy(() => import('./TestUpload.tsx')),
  testSocket: lazy(() => import('./TestComSocket.tsx')),
  testSerial: lazy(() => import('./TestComSerial.tsx')),
  customFields: lazy(() => import('./CustomFields.tsx')),
  attributeKind: lazy(() => import('../attributes/AttributeKindList.tsx')),
  attributeDetail: lazy(() => import('../attributes/AttributeDetail.tsx')),
  attributeOption: lazy(() => import('../attributes/OptionDetail.tsx')),
  attributeOptions: lazy(() => import('../attributes/AttributeOptionsOverview.tsx')),
} as const;

export default function AdminScreen({ screen, entity }: { screen: string; entity?: string }) {
  const Screen = SCREENS[screen as keyof typeof SCREENS] as React.ComponentType<{ entity?: string }> | undefined;
  if (!Screen) return <NotFound />;
  return <Suspense fallback={<Spinner />}><Screen entity={entity} /></Suspense>;
}
