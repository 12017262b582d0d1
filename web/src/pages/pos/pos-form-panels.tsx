import { lazy, Suspense } from 'react';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';

const SaleReturnPanel = lazy(() => import('./SaleReturnPanel.tsx').then((m) => ({ default: m.SaleReturnPanel })));

registerFormPanel({
  key: 'sale-return', place: 'body', // a sale that records partial returns (schema key document.sale.refunds) takes them on its form
  applies: (e) => !!e.document?.sale?.refunds,
  Component: (props: FormPanelProps) => <Suspense fallback={null}><SaleReturnPanel {...props} /></Suspense>,
});
