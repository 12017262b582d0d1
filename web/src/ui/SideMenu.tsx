import { useEffect, useState } from 'react';
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

export function SideMenu() {
  const { t, i18n } = useTranslation();
  const menu = useAtomValue(menuAtom);
  const fallback = useFallbackMenu(menu.status === 'error' && menu.error.status === 404);
  const groups = menu.status === 'loaded' ? menu.data.menuList : fallback;
  const [closed, setClosed] = useState<Record<string, boolean>>({});
  // customer menu paths carry {customerId}: the customer of the page being shown
  const { pathname } = useLocation();
  const [first, second] = pathname.split('/').filter(Boolean);
  const fill = (path: string) => (first === 'customerpage' && second ? path.replace('{customerId}', second) : path);
  return (
    <nav className="bo-sidemenu" aria-label={t('header.menu')}>
      {groups.length === 0 && <p className="bo-muted bo-menu-empty">{t('menu.empty')}</p>}
      {groups.map((g) => {
        const title = t(`menu.${g.key}`, { defaultValue: loc(g.label, i18n.language) || g.key });
        const open = !closed[g.key];
        return (
          <div key={g.key} className="bo-menu-group">
            <button type="button" className="bo-menu-group-title" aria-expanded={open} onClick={() => setClosed((c) => ({ ...c, [g.key]: open }))}>
              {g.icon && <i className={g.icon} aria-hidden="true" />}
              <span>{title}</span>
              <i className={`pi ${open ? 'pi-angle-down' : 'pi-angle-right'} bo-menu-caret`} aria-hidden="true" />
            </button>
            {open && (
              <ul>
                {g.submenu.map((s) => (
                  <li key={s.keyAction}>
                    <NavLink to={fill(s.path)} className={({ isActive }) => (isActive ? 'active' : '')}>
                      {t(`menu.${s.keyAction}`, { defaultValue: loc(s.label, i18n.language) || s.keyAction })}
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
