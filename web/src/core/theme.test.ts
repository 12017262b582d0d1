// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';

// the built file addresses Vite gives in the app; the test runner serves no assets
vi.mock('primereact/resources/themes/lara-light-blue/theme.css?url', () => ({ default: '/assets/lara-light-blue.css' }));
vi.mock('primereact/resources/themes/lara-dark-blue/theme.css?url', () => ({ default: '/assets/lara-dark-blue.css' }));
vi.mock('primereact/resources/themes/lara-light-teal/theme.css?url', () => ({ default: '/assets/lara-light-teal.css' }));
import { applyTheme, storedTheme, THEME_LINK_ID, THEMES, themeName } from './theme.ts';

describe('the site setting stylesheet', () => {
  it('one <link> carries the chosen theme only, and the root knows a dark one', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => { store.set(k, v); } } as Storage;
    expect(applyTheme('dark', document, storage)).toBe('dark');
    const links = () => [...document.querySelectorAll<HTMLLinkElement>(`#${THEME_LINK_ID}`)];
    expect(links().map((l) => l.getAttribute('href'))).toEqual([THEMES.dark!.href]);
    expect(document.documentElement.classList.contains('bo-theme-dark')).toBe(true);
    expect(storedTheme(storage)).toBe('dark');
    // a live change switches the file and the class together once the file has arrived (happy-dom settles a
    // stylesheet at once; tests/e2e/site-settings-live.test.ts sees the order in Chromium)
    applyTheme('teal', document, storage);
    const files = () => [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.getAttribute('href'));
    expect(files()).toEqual([THEMES.teal!.href]);
    expect(links().map((l) => l.getAttribute('href'))).toEqual([THEMES.teal!.href]);
    expect(document.documentElement.classList.contains('bo-theme-dark')).toBe(false);
    expect(document.documentElement.dataset.theme).toBe('teal');
  });

  it('an unknown or empty value is the standard theme, and the themes are distinct files', () => {
    expect(themeName('no-such-theme')).toBe('default');
    expect(themeName(null)).toBe('default');
    expect(new Set(Object.values(THEMES).map((t) => t.href)).size).toBe(Object.keys(THEMES).length);
  });
});
