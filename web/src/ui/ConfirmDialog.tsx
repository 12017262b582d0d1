import type { ReactNode } from 'react';
import { useAtomValue } from 'jotai';
import { useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Dialog } from 'primereact/dialog';
import { Button } from 'primereact/button';
import { sessionAtom } from '../core/session-atoms.ts';
import { CONFIRM_MODAL_WIDTH } from '../core/ui-constants.ts';

export interface ConfirmDialogProps {
  visible: boolean;
  header?: string;
  message: string;
  /** Confirm button label; DELETE by default. */
  confirmLabel?: string;
  /** Backdrop mode: only the confirm button, no cancel. */
  backdrop?: boolean;
  busy?: boolean;
  onConfirm: (userId?: number) => void;
  onCancel?: () => void;
  /** What the action asks for under the message (a void's reason); the first of them takes the focus, not the confirm button. */
  children?: ReactNode;
}

/** The id passed on confirm: the signed-in user's id only on a customer page. */
export function confirmUserId(pathname: string, userId: number | null): number | undefined {
  const first = pathname.split('/').filter(Boolean)[0];
  return first === 'customerpage' && userId !== null && userId !== undefined ? userId : undefined;
}

/** The confirmation dialog for delete-style actions (spec section 1): no close icon, CANCEL and DELETE. */
export function ConfirmDialog({ visible, header, message, confirmLabel, backdrop, busy, onConfirm, onCancel, children }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const session = useAtomValue(sessionAtom);
  const confirm = () => {
    const id = confirmUserId(pathname, session.id);
    if (id === undefined) onConfirm();
    else onConfirm(id);
  };
  const footer = (
    <div className="bo-dialog-footer">
      {!backdrop && <Button label={t('confirm.cancel')} severity="secondary" outlined onClick={() => onCancel?.()} disabled={busy} />}
      <Button label={confirmLabel ?? t('confirm.delete')} severity={confirmLabel ? undefined : 'danger'} onClick={confirm} loading={busy} autoFocus={!children} />
    </div>
  );
  return (
    <Dialog
      visible={visible}
      header={header}
      showHeader={!!header}
      closable={false}
      closeOnEscape={!backdrop}
      dismissableMask={false}
      modal
      aria-label={header ?? message}
      style={{ width: CONFIRM_MODAL_WIDTH, maxWidth: '95vw' }}
      footer={footer}
      onHide={() => { if (!backdrop) onCancel?.(); }}
    >
      <p className="bo-confirm-message">{message}</p>
      {children}
    </Dialog>
  );
}
