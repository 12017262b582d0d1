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
 * A change on an open page loads the new file beside the old one and switches
 * both the root's class and the files when it has arrived: no moment of the
 * dark class over the light theme's colours (or the reverse).
 */
export function applyTheme(setting: unknown, doc: Document = document, storage: Storage | null = globalThis.localStorage ?? null): string {
  const name = themeName(setting);
  const theme = THEMES[name]!;
  const mark = () => {
    doc.documentElement.classList.toggle('bo-theme-dark', theme.dark);
    doc.documentElement.dataset.theme = name;
  };
  const link = doc.getElementById(THEME_LINK_ID) as HTMLLinkElement | null;
  if (!link) {
    // before the app's own sheet, which builds on the theme's variables
    doc.head.insertBefore(themeLink(doc, theme.href), doc.head.querySelector('link[rel="stylesheet"], style'));
    mark();
  } else if (link.getAttribute('href') !== theme.href) {
    const next = themeLink(doc, theme.href);
    link.removeAttribute('id');
    const arrived = () => {
      // a later change may have come first: only the newest file switches the page
      if (doc.getElementById(THEME_LINK_ID) !== next) { next.remove(); return; }
      for (const old of doc.querySelectorAll(`link[${THEME_MARK}]`)) if (old !== next) old.remove();
      mark();
    };
    next.addEventListener('load', arrived, { once: true });
    // a file that fails to load still switches the choice: the page shows what it has rather than the old theme forever
    next.addEventListener('error', arrived, { once: true });
    link.after(next);
  } else mark();
  try { storage?.setItem(STORED, name); } catch { /* private mode: the next start paints in the default first */ }
  return name;
}

const THEME_MARK = 'data-bo-theme-file';

function themeLink(doc: Document, href: string): HTMLLinkElement {
  const link = doc.createElement('link');
  link.id = THEME_LINK_ID;
  link.rel = 'stylesheet';
  link.setAttribute(THEME_MARK, '');
  link.setAttribute('href', href);
  return link;
}

/** The theme of the last session on this browser, until the site settings say. */
export function storedTheme(storage: Storage | null = globalThis.localStorage ?? null): string {
  try { return themeName(storage?.getItem(STORED)); } catch { return 'default'; }
}
