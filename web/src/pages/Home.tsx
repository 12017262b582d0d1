import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { menuAtom } from '../core/app-data.ts';
import { sessionAtom } from '../core/session-atoms.ts';
import { loc } from '../core/i18n.ts';
import { PageTitle } from '../ui/PageTitle.tsx';

export default function Home() {
  const { t, i18n } = useTranslation();
  const session = useAtomValue(sessionAtom);
  const menu = useAtomValue(menuAtom);
  const groups = menu.status === 'loaded' ? menu.data.menuList : [];
  return (
    <section className="bo-page">
      <PageTitle>{t('home.welcome', { name: session.username })}</PageTitle>
      <p className="bo-muted">{t('home.intro')}</p>
      <div className="bo-home-grid">
        {groups.map((g) => (
          <div key={g.key} className="bo-card">
            <h2>{t(`menu.${g.key}`, { defaultValue: loc(g.label, i18n.language) || g.key })}</h2>
            <ul>
              {g.submenu.slice(0, 8).map((s) => (
                <li key={s.keyAction}><Link to={s.path}>{t(`menu.${s.keyAction}`, { defaultValue: loc(s.label, i18n.language) })}</Link></li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </section>
  );
}
