import type { MenuItem } from '../menu/menu-types.ts';
import { menuGroups } from './language-content.ts';
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';
import { loadScreenSet, SCREENS_FILE } from '../../engine/schema/screen-loader.ts';
import type { ScreenDecl, ScreenFlag, ScreenNeeds } from '../../engine/schema/screen-types.ts';

type Submenu = MenuItem['submenu'][number];

/** What the caller may do, asked once per menu: the screens' `needs` are answered from it. */
export interface ScreenRights {
  /** The menu shows this entity to the caller (its view right, the entity switched on): false when there is no such entity. */
  entity(name: string): boolean;
  right(menuKey: string, flag: ScreenFlag): boolean;
  administrator: boolean;
}

/** The declared screens' menu groups must be groups ui-strings names: checked once, when the session routes are registered. */
export function checkScreenGroups(): void {
  const groups = menuGroups();
  loadScreenSet({ screens: DECLARED_SCREENS }, { entity: () => true, group: (g) => g in groups }, SCREENS_FILE);
}

export function mayOpen(needs: ScreenNeeds | undefined, rights: ScreenRights): boolean {
  if (!needs || 'portal' in needs) return false;
  if ('entity' in needs) return rights.entity(needs.entity);
  if ('right' in needs) return rights.right(needs.right, needs.flag);
  return rights.administrator;
}

const entryOf = (s: ScreenDecl): Submenu => ({ keyAction: s.menu!.key, label: s.menu!.label ?? s.title, path: s.menu!.path ?? s.routes[0]!.path, icon: s.menu!.icon });

/**
 * The staff menu's entries of the declared screens (schemas/screens/screens.json) the caller may open, in file
 * order, each with its group and its place among the group's entities: `menu.order`, else right after the
 * entity it needs (`entityOrder`), else after every entity.
 */
export function screenMenuEntries(rights: ScreenRights, entityOrder: (name: string) => number | undefined, screens: readonly ScreenDecl[] = DECLARED_SCREENS):
  { group: string; item: Submenu; place: number }[] {
  return screens.filter((s) => s.menu && mayOpen(s.needs, rights)).map((s) => {
    const after = s.needs && 'entity' in s.needs ? entityOrder(s.needs.entity) : undefined;
    return { group: s.menu!.group, item: entryOf(s), place: s.menu!.order ?? (after ?? Infinity) + 0.5 };
  });
}

/** The customer portal's menu (GET /public/menu/customer): the declared screens that need {portal: true}. */
export function portalMenu(screens: readonly ScreenDecl[] = DECLARED_SCREENS): MenuItem[] {
  const labels = menuGroups();
  const out: MenuItem[] = [];
  for (const s of screens.filter((x) => x.menu && x.needs && 'portal' in x.needs)) {
    const key = s.menu!.group;
    let g = out.find((m) => m.key === key);
    if (!g) { g = { key, label: labels[key] ?? { th: key, en: key }, ...(s.menu!.groupIcon ? { icon: s.menu!.groupIcon } : {}), submenu: [] }; out.push(g); }
    g.submenu.push(entryOf(s));
  }
  return out;
}
