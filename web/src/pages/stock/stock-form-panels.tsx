import { lazy, Suspense } from 'react';
import { registerFormPanel, type FormPanelProps } from '../../renderer/form/form-panels.ts';

const ScanPanel = lazy(() => import('./ScanPanel.tsx'));
const BarcodeLabelsButton = lazy(() => import('./BarcodeLabelsButton.tsx'));


registerFormPanel({
  key: 'stock-scan', place: 'body', // documents scanned into with a barcode scanner (schema key document.scan) carry the scan panel
  applies: (e) => !!e.document?.scan,
  Component: ({ entity, id, reload }: FormPanelProps) => <Suspense fallback={null}><ScanPanel entity={entity.name} id={id} onScanned={reload} /></Suspense>,
});
registerFormPanel({
  key: 'barcode-labels', place: 'body', applies: (e) => e.holds === 'packBarcodes', // the pack barcodes (schema key holds) print labels
  Component: ({ entity, id }: FormPanelProps) => <Suspense fallback={null}><div className="bo-toolbar"><BarcodeLabelsButton entity={entity.name} ids={[id]} /></div></Suspense>,
});
