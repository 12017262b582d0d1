// each theme is its own built file (Vite's ?url), pruned and precompressed like the rest of web/dist;
// only the chosen one is loaded, through one <link> whose address changes when the setting does
import laraLightBlue from 'primereact/resources/themes/lara-light-blue/theme.css?url';
import laraDarkBlue from 'primereact/resources/themes/lara-dark-blue/theme.css?url';
import laraLightTeal from 'primereact/resources/themes/lara-light-teal/theme.css?url';

/** The themes the site setting `stylesheet` chooses among; `default` is the standard light blue. */
export const THEMES: Record<string, { href: string; dark: boolean }> = {
  default: { href: laraLightBlue, dark: false },
  dark: { href: laraDarkBlue, dark: true },
  teal: { href: laraLightTeal, dark: false },
};

const STORED = 'theme';
export const THEME_LINK_ID = 'bo-theme';

/** The known theme of a setting value; anything else (empty, an old name) is the standard one. */
export function themeName(setting: unknown): string {
  return typeof setting === 'string' && Object.hasOwn(THEMES, setting) ? setting : 'default';
}

/**
 * Puts the chosen theme on the page: the one <link> points at its file, the
 * root carries bo-theme-dark for the app's own dark colours, and the choice is
 * remembered so the next start paints in it before the settings arrive.
 */
export function applyTheme(setting: unknown, doc: Document = document, storage: Storage | null = globalThis.localStorage ?? null): string {
  const name = themeName(setting);
  const theme = THEMES[name]!;
  let link = doc.getElementById(THEME_LINK_ID) as HTMLLinkElement | null;
  if (!link) {
    link = doc.createElement('link');
    link.id = THEME_LINK_ID;
    link.rel = 'stylesheet';
    // before the app's own sheet, which builds on the theme's variables
    doc.head.insertBefore(link, doc.head.querySelector('link[rel="stylesheet"], style'));
  }
  if (link.getAttribute('href') !== theme.href) link.setAttribute('href', theme.href);
  doc.documentElement.classList.toggle('bo-theme-dark', theme.dark);
  doc.documentElement.dataset.theme = name;
  try { storage?.setItem(STORED, name); } catch { /* private mode: the next start paints in the default first */ }
  return name;
}

/** The theme of the last session on this browser, until the site settings say. */
export function storedTheme(storage: Storage | null = globalThis.localStorage ?? null): string {
  try { return themeName(storage?.getItem(STORED)); } catch { return 'default'; }
}
