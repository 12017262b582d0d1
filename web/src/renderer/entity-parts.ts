import { lazyScreen } from '../ui/lazy-screen.tsx';

// The generic list and forms EntityScreen hands a schema to; here rather than in EntityScreen.tsx so the
// route can load them ahead (ui/route-screens.tsx preloadEntry) while the schema is still on its way.
export const EntityList = lazyScreen(() => import('./EntityList.tsx'));
export const EntityForm = lazyScreen(() => import('./EntityForm.tsx'));
export const SingletonForm = lazyScreen(() => import('./SingletonForm.tsx'));
