import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { fetchDocumentChain } from './document-chain.ts';

/**
 * A document list's row menus: open the row, and the create-from screens the row can open now (the same actions as
 * the buttons on its form), read when the menu opens. Each row has a plain button; the one menu is made only while a
 * row's is open. A UI-kit Button and popup Menu per row (each rendering twice on mount for its portal) were about
 * 80 ms of a 50-row list's first render in a profile of /quotation (docs/performance.md, Browser).
 */
export function useChainRowMenu(entity: string): { button: (id: number, title: string) => React.ReactNode; menu: React.ReactNode } {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const menu = useRef<Menu>(null);
  const [open, setOpen] = useState<{ id: number; target: HTMLElement } | null>(null);
  const [items, setItems] = useState<MenuItem[]>([]);

  const base = (id: number): MenuItem[] => [{ label: t('list.open'), icon: 'pi pi-folder-open', command: () => navigate(`/${entity}/${id}`) }];
  useEffect(() => {
    if (!open) return;
    let live = true;
    // the menu of this row was just made: it opens under the row's button
    menu.current?.show({ currentTarget: open.target } as unknown as React.SyntheticEvent);
    void fetchDocumentChain(entity, open.id).then((c) => live && setItems([
      ...base(open.id),
      ...c.create.map((s): MenuItem => ({ label: s.action[lang], icon: 'pi pi-arrow-right', command: () => navigate(s.href), data: { path: s.path } } as MenuItem)),
    ]), () => undefined);
    return () => { live = false; };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const toggle = (e: React.MouseEvent<HTMLButtonElement>, id: number) => {
    e.stopPropagation();
    if (open?.id === id) { menu.current?.hide(e); return; }
    setItems(base(id));
    setOpen({ id, target: e.currentTarget });
  };
  return {
    // the UI kit's icon-only text button, as plain markup (same classes, so it looks the same)
    button: (id, title) => (
      <button type="button" className="p-button p-component p-button-icon-only p-button-rounded p-button-text p-button-sm" aria-haspopup="menu"
        aria-label={`${t('list.row_actions')} ${title}`} onClick={(e) => toggle(e, id)} onKeyDown={(e) => e.stopPropagation()} data-testid="row-menu">
        <span className="p-button-icon p-c pi pi-ellipsis-v" />
        <span className="p-button-label p-c">&nbsp;</span>
      </button>
    ),
    menu: open && (
      <Menu key={open.id} model={items} popup ref={menu} appendTo={typeof document !== 'undefined' ? document.body : undefined}
        onClick={(e) => e.stopPropagation()} onHide={() => setOpen(null)} />
    ),
  };
}
