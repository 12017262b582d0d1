import { lazy, Suspense, useEffect, useState } from 'react';
import { lazyScreen } from '../../ui/lazy-screen.tsx';
import { EntityForm } from '../../renderer/entity-parts.ts';
import { useParams } from 'react-router-dom';
import { fetchEntitySummaries } from '../../core/entity-meta.ts';
import { Spinner } from '../../ui/Spinner.tsx';
import NotFound from '../../ui/NotFound.tsx';
import { findCreateFrom } from '../documents/find-create-from.ts';
import type { CreateFromScreen } from '../../../../engine/documents/create-from-labels.ts';

const EntityScreen = lazyScreen(() => import('../../renderer/EntityScreen.tsx'));
/** The code a record opened by its sub-page path (/quotation/1) renders next: loaded with this screen (route-screens.tsx). */
export function preloadSubPageParts(): Promise<unknown> {
  return Promise.all([EntityScreen.preload(), EntityForm.preload()]);
}
const AttributeValueScreen = lazy(() => import('./AttributeValueScreen.tsx'));
const CreateFromRoute = lazyScreen(async () => { const m = await import('../documents/CreateFromRoute.tsx'); await m.preloadCreateFromPage(); return { default: m.default }; });

/** A create-from screen by its sub-page path (/receipt/billing_note): its code, loaded ahead by the route (App.tsx). */
export function preloadSubPageCreateFrom(): Promise<void> {
  return CreateFromRoute.preload();
}

/** Menu group → the pages (entities) in it that this user can open, all of them customisable in page settings. */
async function pagesByGroup(): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const s of await fetchEntitySummaries().catch(() => [])) {
    if (!s.menuGroup || s.kind === 'lines') continue;
    out.set(s.menuGroup, (out.get(s.menuGroup) ?? new Map()).set(s.name, s.kind));
  }
  return out;
}

/**
 * The spec's /{pageKey}/{subPageKey}[/{submenuDetailId}[/{attributeId}]] (docs/page-settings.md):
 * pageKey is a menu group whose pages have settings and subPageKey one of its pages, so
 * /master_data/return_reason is that page's list (with its page settings) and
 * /master_data/return_reason/12 its record 12 and /master_data/return_reason/12/name_th the
 * value of that one field of it (AttributeValueScreen). Any other two-segment path keeps its old
 * meaning (/{entity}/{id} of a schema the route table does not list) or is not found.
 */
export default function SubPageScreen() {
  const { pageKey = '', subPageKey = '', submenuDetailId, attributeId } = useParams();
  const [groups, setGroups] = useState<Map<string, Map<string, string>> | null>(null);
  // /{target}/{source}: a create-from screen the target's schema declares (document.from[])
  const [createFrom, setCreateFrom] = useState<CreateFromScreen | null | undefined>(undefined);
  useEffect(() => { let live = true; void pagesByGroup().then((g) => live && setGroups(g)); return () => { live = false; }; }, []);
  const maybeCreateFrom = submenuDetailId === undefined && /^[a-z][a-z0-9_]*$/.test(subPageKey);
  useEffect(() => {
    let live = true;
    setCreateFrom(undefined);
    if (maybeCreateFrom) void findCreateFrom(pageKey, subPageKey).then((c) => live && setCreateFrom(c));
    else setCreateFrom(null);
    return () => { live = false; };
  }, [pageKey, subPageKey, maybeCreateFrom]);
  // a create-from screen needs only its schemas: it does not wait for the page list
  if (createFrom) return <Suspense fallback={<Spinner />}><CreateFromRoute screen={createFrom} /></Suspense>;
  if (!groups || createFrom === undefined) return <Spinner />;
  const kind = groups.get(pageKey)?.get(subPageKey);
  const isSubPage = kind !== undefined;
  let screen: React.ReactNode;
  if (isSubPage && attributeId !== undefined && submenuDetailId !== undefined) screen = <AttributeValueScreen pageKey={pageKey} subPageKey={subPageKey} recordId={submenuDetailId} attribute={attributeId} />;
  else if (isSubPage && submenuDetailId !== undefined) screen = <EntityScreen entity={subPageKey} mode="detail" id={submenuDetailId} />;
  else if (isSubPage) screen = <EntityScreen entity={subPageKey} mode={kind === 'singleton' ? 'singleton' : 'list'} />;
  else if (submenuDetailId === undefined) screen = <EntityScreen entity={pageKey} mode="detail" dynamic id={subPageKey} />;
  else return <NotFound />;
  return <Suspense fallback={<Spinner />}>{screen}</Suspense>;
}
