import { useEffect, useMemo, useRef, useState } from 'react';
import { useAtomValue } from 'jotai';
import { NavLink, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { menuAtom, type MenuGroup } from '../core/app-data.ts';
import { fetchEntitySummaries } from '../core/entity-meta.ts';
import { loc } from '../core/i18n.ts';

/** Only while the server has no menu endpoint (404): the entities of the schema grouped by menuGroup. */
function useFallbackMenu(enabled: boolean): MenuGroup[] {
  const [groups, setGroups] = useState<MenuGroup[]>([]);
  useEffect(() => {
    if (!enabled) return;
    fetchEntitySummaries().then((list) => {
      const by = new Map<string, MenuGroup>();
      for (const e of list) {
        if (!e.menuGroup) continue;
        const g = by.get(e.menuGroup) ?? { key: e.menuGroup, label: { th: '', en: '' }, submenu: [] };
        g.submenu.push({ keyAction: e.menuKey, label: e.labelPlural ?? e.label, path: `/${e.name}` });
        by.set(e.menuGroup, g);
      }
      setGroups([...by.values()]);
    }, () => setGroups([]));
  }, [enabled]);
  return groups;
}

const OPEN_KEY = 'menu_open_groups';

function storedOpen(): Record<string, boolean> {
  try { return JSON.parse(localStorage.getItem(OPEN_KEY) ?? '{}') as Record<string, boolean>; } catch { return {}; }
}

/** Thai and English labels and the route, lower-cased, for the quick search. */
function haystack(label: { th: string; en: string } | undefined, shown: string, path: string): string {
  return `${shown} ${label?.th ?? ''} ${label?.en ?? ''} ${path}`.toLowerCase();
}

/** The menu path of the page shown: the longest item path the page is, or is under. */
export function activeMenuPath(paths: readonly string[], pathname: string): string | undefined {
  return paths.filter((p) => pathname === p || pathname.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0];
}

/**
 * The side menu: groups that fold (remembered locally; the current page's group
 * opens by itself), the current item scrolled into view, and a quick search over
 * Thai and English labels and routes. `onNavigate` closes it on phones.
 */
export function SideMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { t, i18n } = useTranslation();
  const menu = useAtomValue(menuAtom);
  const fallback = useFallbackMenu(menu.status === 'error' && menu.error.status === 404);
  const groups = menu.status === 'loaded' ? menu.data.menuList : fallback;
  const [open, setOpen] = useState<Record<string, boolean>>(storedOpen);
  const [query, setQuery] = useState('');
  const navRef = useRef<HTMLElement>(null);
  // customer menu paths carry {customerId}: the customer of the page being shown
  const { pathname } = useLocation();
  const [first, second] = pathname.split('/').filter(Boolean);
  const fill = (path: string) => (first === 'customerpage' && second ? path.replace('{customerId}', second) : path);
  // one item lights up: the one whose path names most of the page (/tax_invoice/sales_order, not also /tax_invoice)
  const activePath = activeMenuPath(groups.flatMap((g) => g.submenu.map((s) => fill(s.path))), pathname);
  const currentGroup = groups.find((g) => g.submenu.some((s) => fill(s.path) === activePath))?.key;

  useEffect(() => { localStorage.setItem(OPEN_KEY, JSON.stringify(open)); }, [open]);
  // the current page's item is in view, in an open group
  useEffect(() => {
    if (currentGroup && open[currentGroup] === false) setOpen((o) => ({ ...o, [currentGroup]: true }));
    const id = requestAnimationFrame(() => navRef.current?.querySelector('a.active')?.scrollIntoView({ block: 'nearest' }));
    return () => cancelAnimationFrame(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, currentGroup, groups.length]);

  const q = query.trim().toLowerCase();
  // a short menu (the customer portal) needs no search and no folding
  const small = groups.reduce((n, g) => n + g.submenu.length, 0) <= 8;
  // an item's text is translated only when it is shown or searched: a page's first render shows one open group,
  // and translating all of the menu's ~200 items was most of the menu's cost
  const itemText = (s: MenuGroup['submenu'][number]) => t(`menu.${s.keyAction}`, { defaultValue: loc(s.label, i18n.language) || s.keyAction });
  const shown = useMemo(() => groups.map((g) => {
    const title = t(`menu.${g.key}`, { defaultValue: loc(g.label, i18n.language) || g.key });
    if (q === '' || haystack(g.label, title, '').includes(q)) return { g, title, items: g.submenu };
    return { g, title, items: g.submenu.filter((s) => haystack(s.label, itemText(s), s.path).includes(q)) };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }).filter((x) => x.items.length > 0), [groups, q, t, i18n.language]);

  return (
    <nav className="bo-sidemenu" aria-label={t('header.menu')} ref={navRef}>
      {!small && <div className="bo-menu-search">
        <i className="pi pi-search" aria-hidden="true" />
        <input type="search" className="p-inputtext p-component" value={query} onChange={(e) => setQuery(e.target.value)}
          placeholder={t('menu.search')} aria-label={t('menu.search')}
          onKeyDown={(e) => { if (e.key === 'Escape') setQuery(''); }} />
      </div>}
      {groups.length === 0 && <p className="bo-muted bo-menu-empty">{t('menu.empty')}</p>}
      {groups.length > 0 && shown.length === 0 && <p className="bo-muted bo-menu-empty">{t('menu.no_match')}</p>}
      {shown.map(({ g, title, items }) => {
        // while searching every matching group is open; otherwise as the user left it (the current one opens)
        const isOpen = q !== '' || (open[g.key] ?? (small || g.key === currentGroup));
        return (
          <div key={g.key} className="bo-menu-group">
            <button type="button" className="bo-menu-group-title" aria-expanded={isOpen} onClick={() => setOpen((o) => ({ ...o, [g.key]: !isOpen }))}>
              {g.icon && <i className={g.icon} aria-hidden="true" />}
              <span>{title}</span>
              <span className="bo-menu-count" aria-hidden="true">{items.length}</span>
              <i className={`pi ${isOpen ? 'pi-angle-down' : 'pi-angle-right'} bo-menu-caret`} aria-hidden="true" />
            </button>
            {isOpen && (
              <ul>
                {items.map((s) => (
                  <li key={s.keyAction}>
                    <NavLink to={fill(s.path)} className={() => (fill(s.path) === activePath ? 'active' : '')} aria-current={fill(s.path) === activePath ? 'page' : undefined} onClick={onNavigate}>
                      {itemText(s)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
    </nav>
  );
}
