import { useBlocker } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';

/** Page forms and route-level modals: leaving the route with unsaved changes asks first (a router has one blocker). */
export function LeaveGuard({ dirty, leaving }: { dirty: boolean; leaving: React.RefObject<boolean> }) {
  const { t } = useTranslation();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);
  return (
    <ConfirmDialog
      visible={blocker.state === 'blocked'}
      header={t('common.unsaved_header')}
      message={t('common.leave_unsaved')}
      confirmLabel={t('common.leave')}
      onConfirm={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    />
  );
}

