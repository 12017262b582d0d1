import { lazy } from 'react';

const Movements = lazy(() => import('./MovementsPage.tsx'));
const ProductImport = lazy(() => import('./ProductImportPage.tsx'));

/** The stock screens that are not a schema's list or form: /incoming, /outgoing, /product/import. */
export default function StockScreen({ screen }: { screen: string }) {
  switch (screen) {
    case 'incoming': return <Movements direction="in" />;
    case 'outgoing': return <Movements direction="out" />;
    default: return <ProductImport />;
  }
}
