import { useCallback, useState } from 'react';
import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Button } from 'primereact/button';
import { Badge } from 'primereact/badge';
import { PlainButton } from './PlainButton.tsx';
import { settingsAtom } from '../core/app-data.ts';
import { notificationNumberAtom } from '../core/socket-client.ts';
import { setLanguage, type Lang } from '../core/i18n.ts';
import { isCustomer, sessionAtom } from '../core/session-atoms.ts';
import { useSignOut } from './use-sign-out.ts';
import { NotificationPanel } from './NotificationPanel.tsx';

/** True when the site setting hides the Notification button. */
export function hidesNotification(v: unknown): boolean {
  return v === 1 || v === true || v === '1';
}

/** The header of every signed-in screen: logo, language, Notification (badge), Setting, Logout. */
export function Header({ onToggleMenu }: { onToggleMenu?: () => void }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const settings = useAtomValue(settingsAtom);
  const unread = useAtomValue(notificationNumberAtom);
  const session = useAtomValue(sessionAtom);
  const signOut = useSignOut();
  const showNotification = settings.status === 'loaded' && !hidesNotification(settings.data.is_hide_notification);
  const lang = (i18n.language === 'en' ? 'en' : 'th') as Lang;
  const [panel, setPanel] = useState(false);
  // phones: the actions fold into one "more" menu so the header never wraps and Logout stays reachable
  const [more, setMore] = useState(false);
  const closePanel = useCallback(() => setPanel(false), []);

  return (
    <header className="bo-header">
      <div className="bo-header-left">
        {onToggleMenu && (
          <PlainButton icon="pi pi-bars" text rounded severity="secondary" aria-label={t('header.menu')} onClick={onToggleMenu} className="bo-menu-toggle" />
        )}
        <a href="/" className="bo-logo" onClick={(e) => { e.preventDefault(); navigate(isCustomer(session) ? location.pathname : '/'); }} aria-label={t('app.name')}>
          <img src="/logo.svg" alt="" width={30} height={30} />
          <span>{t('app.name')}</span>
        </a>
      </div>
      <nav className="bo-header-right" aria-label={t('header.menu')}>
        {showNotification && (
          <span className="bo-notify">
            <PlainButton
              text severity="secondary" className="bo-header-btn p-overlay-badge" icon="pi pi-bell"
              aria-label={`${t('header.notification')}${unread ? ` (${unread})` : ''}`}
              aria-expanded={panel} aria-haspopup="dialog"
              onClick={() => setPanel((p) => !p)}
              data-testid="notification-button"
            >
              {unread > 0 && <Badge value={unread > 99 ? '99+' : unread} severity="danger" data-testid="notification-badge" />}
            </PlainButton>
            {panel && <NotificationPanel onClose={closePanel} />}
          </span>
        )}
        <PlainButton text severity="secondary" className="bo-header-btn bo-header-more" icon="pi pi-ellipsis-v" aria-label={t('header.more')}
          aria-expanded={more} aria-controls="bo-header-actions" onClick={() => setMore((m) => !m)} />
        <div id="bo-header-actions" className={`bo-header-actions ${more ? 'is-open' : ''}`} onClick={(e) => { if ((e.target as HTMLElement).closest('button:not(.bo-lang button)')) setMore(false); }}>
        <div className="bo-lang" role="group" aria-label={t('header.language')}>
          {(['th', 'en'] as const).map((l) => (
            <button key={l} type="button" className={l === lang ? 'active' : ''} aria-pressed={l === lang} onClick={() => setLanguage(l)}>
              {l.toUpperCase()}
            </button>
          ))}
        </div>
        {!isCustomer(session) && (
          <Button text severity="secondary" className="bo-header-btn bo-setting-btn" icon="pi pi-cog" label={t('header.setting')} aria-label={t('header.setting')} tooltip={t('header.setting')} tooltipOptions={{ position: 'bottom' }} onClick={() => navigate('/setting_site')} />
        )}
        <span className="bo-user" title={session.email}>{session.username}</span>
        <PlainButton severity="secondary" outlined size="small" icon="pi pi-sign-out" label={t('header.logout')} onClick={signOut} className="bo-logout" />
        </div>
      </nav>
    </header>
  );
}
