import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import NoAccess from '../../ui/NoAccess.tsx';
import { useCan } from '../../core/permissions.ts';
import { TABS } from './page-setting-tabs.ts';

const PageSettingList = lazy(() => import('./PageSettingList.tsx'));
const PageSettingEditor = lazy(() => import('./PageSettingEditor.tsx'));

/**
 * /page_setting, /page_setting/{pageKey} and /page_setting/{pageKey}/{tab}
 * (tab: fields, list or form). Hiding is convenience: the server refuses
 * without view (reading) or edit (saving) on the menu key page_setting.
 */
export default function PageSettingScreen({ screen }: { screen: 'list' | 'editor' }) {
  const { pageKey, subPageKey } = useParams();
  const canView = useCan('page_setting', 'view');
  if (!canView) return <NoAccess titleKey="route.page_setting" />;
  if (screen === 'list') return <Suspense fallback={<Spinner />}><PageSettingList /></Suspense>;
  if (!pageKey || (subPageKey !== undefined && !(TABS as readonly string[]).includes(subPageKey))) return <NotFound />;
  return <Suspense fallback={<Spinner />}><PageSettingEditor key={pageKey} pageKey={pageKey} tab={subPageKey} /></Suspense>;
}
