import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
// Sarabun travels with the app: a machine without a Thai font would show empty boxes; unicode-range
// subsets mean the browser fetches only the scripts a page uses
import '@fontsource/sarabun/400.css';
import '@fontsource/sarabun/600.css';
import './styles.css';
import { App, preloadRoute } from './App.tsx';
import { appStore } from './core/app-store.ts';
import { sessionAtom } from './core/session-atoms.ts';
import { installMotion } from './core/motion.ts';
import { applyTheme, storedTheme } from './core/theme.ts';
import { followSettings } from './core/settings-follow.ts';

installMotion();
// the theme of the site setting `stylesheet` and the menu follow the settings live (core/settings-follow.ts)
applyTheme(storedTheme());
followSettings(appStore);

import { provideRecordForm } from './renderer/record-form-slot.ts';

// a related list opens rows in the record form; handed over here so RelatedList and EntityForm do not import each other
provideRecordForm(() => import('./renderer/EntityForm.tsx'));

// the first screen's code first (usually already on its way: boot.ts), then one render without fallbacks;
// a chunk that fails to load is shown by the lazy screen's own error path
void preloadRoute(window.location.pathname, appStore.get(sessionAtom).isAuthenticated).catch(() => undefined).then(() => {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
