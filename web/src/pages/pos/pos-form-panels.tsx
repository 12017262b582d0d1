import { lazy, Suspense } from 'react';
import { createPortal } from 'react-dom';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';
import { registerActionApproval, type ApprovalDialogProps } from '../../renderer/action-approvals.ts';

const SaleReturnPanel = lazy(() => import('./SaleReturnPanel.tsx').then((m) => ({ default: m.SaleReturnPanel })));
const SupervisorPinPanel = lazy(() => import('./SupervisorPinPanel.tsx').then((m) => ({ default: m.SupervisorPinPanel })));

registerFormPanel({
  key: 'sale-return', place: 'body', // a sale that records partial returns (schema key document.sale.refunds) takes them on its form
  applies: (e) => !!e.document?.sale?.refunds,
  Component: (props: FormPanelProps) => <Suspense fallback={null}><SaleReturnPanel {...props} /></Suspense>,
});

// a sale's actions (the void, คืนเงิน/ยกเลิกบิล) refused to a cashier with "a supervisor may approve" (server/pos/supervisor-pin.ts):
// the register's หัวหน้าอนุมัติ dialog, and the action again with the supervisor's name and PIN
registerActionApproval({
  key: 'supervisor-pin',
  applies: (e, err) => !!e.document?.sale && err.status === 403 && err.params?.reason === 'supervisor_needed',
  // on the page's body: the form's layout would keep a fixed overlay under the app's header and action bar
  Dialog: ({ what, error, busy, onApprove, onCancel }: ApprovalDialogProps) => createPortal(
    <Suspense fallback={null}>
      <SupervisorPinPanel what={what} error={error} busy={busy} onCancel={onCancel}
        onApprove={(who, pin) => onApprove({ 'x-supervisor': who, 'x-supervisor-pin': pin })} />
    </Suspense>,
    document.body,
  ),
});
