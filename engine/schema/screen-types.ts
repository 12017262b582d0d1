import type { LocalizedText } from './localized-text.ts';

/**
 * The screens that are not an entity's generic list or form, declared once in schemas/screens/screens.json
 * (docs/schema-format.md, "Screens"). The web's route table and titles (web/src/core/route-table.ts) and the
 * server's menu (server/session/screen-menu.ts) are made from it.
 */
export type ScreenRouteKind =
  | 'home' | 'signin' | 'signinCustomer' | 'customerBills' | 'customerBill'
  | 'entityList' | 'entityDetail' | 'singleton' | 'later' | 'loading' | 'childList' | 'viewRecord' | 'admin' | 'pageSetting'
  | 'report' | 'stock' | 'register';

export const SCREEN_ROUTE_KINDS: readonly ScreenRouteKind[] = ['home', 'signin', 'signinCustomer', 'customerBills', 'customerBill', 'entityList', 'entityDetail',
  'singleton', 'later', 'loading', 'childList', 'viewRecord', 'admin', 'pageSetting', 'report', 'stock', 'register'];

/** One path of a screen and the web screen that renders it (web/src/ui/route-screens.tsx picks it by `kind`). */
export interface ScreenRoute {
  path: string;
  kind: ScreenRouteKind;
  /** The entity it shows (entityList, childList, viewRecord, an admin editor of an entity, the portal's bills). */
  entity?: string;
  /** false: open without signing in (the sign-in pages). */
  auth?: boolean;
  /** childList: the link field of `entity` that points at the record in the path. */
  via?: string;
  /** viewRecord: the boolean field set to true when the record is opened. */
  mark?: string;
  /** admin, pageSetting, report, stock, pos: which screen of that kind. */
  screen?: string;
}

/** A permission flag of a role's menu key (engine/permissions/customer-role.ts PermissionFlags). */
export type ScreenFlag = 'view' | 'edit' | 'print' | 'email' | 'export';

/** The rights an entry of the menu needs; the server checks them when it builds the menu. */
export type ScreenNeeds =
  /** whoever the menu shows the entity to (its view right, and the entity switched on in the site settings) */
  | { entity: string }
  /** a right of the role: menu key and flag */
  | { right: string; flag: ScreenFlag }
  /** administrators only */
  | { administrator: true }
  /** the customer portal's menu (GET /public/menu/customer) */
  | { portal: true };

export interface ScreenMenu {
  /** The menu group (ui-strings' menu.<group>). */
  group: string;
  /** The menu key the web's menu reads (keyAction). */
  key: string;
  icon: string;
  /** Its place among the group's entities (their menuOrder); absent: after them, in file order. */
  order?: number;
  /** The entry's words when not the screen's title. */
  label?: LocalizedText;
  /** The entry's path when not the first route's (the portal's /customerpage/{customerId}/bill). */
  path?: string;
  /** The group's icon, when this entry makes the group (the portal's). */
  groupIcon?: string;
}

export interface ScreenDecl {
  /** The title's key: route.<name> in the language content. */
  name: string;
  title: LocalizedText;
  routes: ScreenRoute[];
  menu?: ScreenMenu;
  /** Required with `menu`. */
  needs?: ScreenNeeds;
}
