import { useAtom } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Dialog } from 'primereact/dialog';
import { Button } from 'primereact/button';
import { sessionExpiredAtom } from '../core/app-data.ts';
import { MODAL_WIDTH } from '../core/ui-constants.ts';
import { useSignOut } from './use-sign-out.ts';

/** "Session expired" on a backdrop with a single LOGOUT button (spec section 8). */
export function SessionExpiredModal() {
  const { t } = useTranslation();
  const [visible, setVisible] = useAtom(sessionExpiredAtom);
  const signOut = useSignOut();
  const logout = () => {
    setVisible(false);
    signOut(); // clears the session, disconnects the socket, redirects
  };
  return (
    <Dialog
      visible={visible}
      header={t('session.expired.title')}
      closable={false}
      closeOnEscape={false}
      dismissableMask={false}
      modal
      style={{ width: MODAL_WIDTH, maxWidth: '95vw' }}
      footer={<Button label={t('session.logout')} onClick={logout} autoFocus />}
      onHide={() => undefined}
    >
      <p>{t('session.expired.message')}</p>
    </Dialog>
  );
}
