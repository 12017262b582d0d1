import { lazy } from 'react';

const Movements = lazy(() => import('./MovementsPage.tsx'));
const Import = lazy(() => import('./ImportPage.tsx'));

/** The stock screens that are not a schema's list or form: /incoming, /outgoing, an importable entity's /<entity>/import. */
export default function StockScreen({ screen, entity, titleKey }: { screen: string; entity?: string; titleKey: string }) {
  switch (screen) {
    case 'incoming': return <Movements direction="in" entity={entity!} />;
    case 'outgoing': return <Movements direction="out" entity={entity!} />;
    default: return <Import entity={entity!} titleKey={titleKey} />;
  }
}
