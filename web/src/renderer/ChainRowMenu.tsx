import { useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Button } from 'primereact/button';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { fetchDocumentChain } from './document-chain.ts';

/**
 * A list row's menu on a document: open it, and the create-from screens the row can open now
 * (the same actions as the buttons on its form), read when the menu opens.
 */
export function ChainRowMenu({ entity, id, title }: { entity: string; id: number; title: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const menu = useRef<Menu>(null);
  const [items, setItems] = useState<MenuItem[]>([]);
  const lang = i18n.language === 'en' ? 'en' : 'th';
  const base: MenuItem[] = [{ label: t('list.open'), icon: 'pi pi-folder-open', command: () => navigate(`/${entity}/${id}`) }];
  const open = (e: React.MouseEvent) => {
    e.stopPropagation();
    setItems(base);
    menu.current?.toggle(e);
    void fetchDocumentChain(entity, id).then((c) => setItems([
      ...base,
      ...c.create.map((s): MenuItem => ({ label: s.action[lang], icon: 'pi pi-arrow-right', command: () => navigate(s.href), data: { path: s.path } } as MenuItem)),
    ]), () => undefined);
  };
  return (
    <>
      <Button type="button" icon="pi pi-ellipsis-v" text rounded size="small" aria-haspopup="menu" aria-label={`${t('list.row_actions')} ${title}`}
        onClick={open} onKeyDown={(e) => e.stopPropagation()} data-testid="row-menu" />
      <Menu model={items} popup ref={menu} appendTo={typeof document !== 'undefined' ? document.body : undefined} onClick={(e) => e.stopPropagation()} />
    </>
  );
}
