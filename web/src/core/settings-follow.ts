import type { createStore } from 'jotai';
import { loadMenu, settingsAtom, type SiteSettings } from './app-data.ts';
import { sessionAtom } from './session-atoms.ts';
import { applyTheme } from './theme.ts';

type Store = ReturnType<typeof createStore>;

/**
 * What the open page does when the site settings change (they are read again
 * when the server announces a change): the theme follows `stylesheet`, and
 * the menu is asked for again, since the server leaves out what a setting
 * switches off (schema key enabledBy: production reports, assets).
 */
export function followSettings(store: Store): () => void {
  let seen: SiteSettings | null = null;
  return store.sub(settingsAtom, () => {
    const s = store.get(settingsAtom);
    if (s.status !== 'loaded') return;
    applyTheme(s.data.stylesheet);
    const before = seen;
    seen = s.data;
    // the first load comes with the menu itself; later ones may change what it holds
    if (before && JSON.stringify(before) !== JSON.stringify(s.data)) {
      const session = store.get(sessionAtom);
      if (session.isAuthenticated) void loadMenu(session);
    }
  });
}
