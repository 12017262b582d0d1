import { DECLARED_SCREENS } from '../../../engine/schema/declared-screens.ts';
import type { ScreenRoute, ScreenRouteKind } from '../../../engine/schema/screen-types.ts';

/**
 * Every route of spec section 2 that is not an entity's generic screen, from the one declaration of
 * the screens (schemas/screens/screens.json, docs/schema-format.md "Screens"), which the server's menu
 * is made from too. `kind` picks the lazily loaded screen (ui/route-screens.tsx); the title is the
 * screen's (route.<name>). An entity's list (/{entity}), form (/{entity}/create, /{entity}/{id}),
 * single-row screen and create-from screens (/{target}/{source}, document.from[]) come from the
 * catch-all routes in App.tsx, from what the server's schemas say; reports from GET /api/report.
 *  - later: a feature of a later issue; shows its title and "not available yet"
 *  - childList: the rows of `entity` whose link `via` points at the record {id} (e.g. a company's files)
 *  - viewRecord: one record read-only; opening it sets the boolean `mark` to true (an alert is read)
 */
export type RouteKind = ScreenRouteKind;

export interface RouteEntry extends ScreenRoute {
  titleKey: string;
}

/** The routes of the declared screens, in file order. */
export function routesOf(screens: typeof DECLARED_SCREENS): RouteEntry[] {
  return screens.flatMap((s) => s.routes.map((r) => ({ ...r, titleKey: `route.${s.name}` })));
}

export const ROUTES: RouteEntry[] = routesOf(DECLARED_SCREENS);

/**
 * The spec's routes under a page that has settings: /{pageKey}/{subPageKey}, then
 * /{submenuDetailId} and /{attributeId}. They are matched after every static route,
 * and the screen decides (pages/page-setting/SubPageScreen.tsx): a menu group and one
 * of its pages, else the old /{entity}/{id}, else not found.
 */
export const SPEC_SUB_PAGE_PATHS = ['/:pageKey/:subPageKey', '/:pageKey/:subPageKey/:submenuDetailId', '/:pageKey/:subPageKey/:submenuDetailId/:attributeId'];

/** First path segments of the screens that are not an entity's list or form ("/outgoing", "/system_log"). */
const OTHER_SCREENS = new Set(ROUTES.filter((r) => r.kind !== 'entityList' && r.kind !== 'entityDetail')
  // "/product/import" is a screen under an entity, not instead of it
  .filter((r) => !/^\/[a-z0-9_]+\/[a-z]/.test(r.path) && !ROUTES.some((e) => e.kind === 'entityList' && e.entity === r.entity)).map((r) => r.path.split('/')[1]));

/**
 * The entity a list or detail path would show ("/product/12" → "product"), or null for any other
 * screen: a word that names no other screen is taken for an entity, as the catch-all routes do (a
 * wrong guess costs one early request for a schema that is not there, and the screen says not found).
 */
export function entityOfPath(pathname: string): string | null {
  const first = pathname.split('/').filter(Boolean)[0];
  if (!first || !/^[a-z][a-z0-9_]*$/.test(first) || OTHER_SCREENS.has(first)) return null;
  return first;
}
