import { lazy, useState, type ComponentType } from 'react';

export interface LazyScreen<P> {
  (props: P): React.ReactNode;
  /** Loads the code now; a screen loaded before it renders shows at once, without a Suspense fallback. */
  preload: () => Promise<void>;
}

/**
 * React.lazy that can be loaded ahead. A plain lazy component suspends on its
 * first render even when its chunk is already in memory, and React 19 holds a
 * boundary's content back for up to 300 ms after a fallback shows; with three
 * nested screens (shell, screen, list) that was most of a second of a cold
 * /product. A screen preloaded before it renders (route-screens.tsx
 * `preloadRoute`, main.tsx) skips the fallback; one not preloaded behaves as lazy.
 */
export function lazyScreen<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyScreen<P> {
  let loaded: ComponentType<P> | null = null;
  let started: Promise<void> | null = null;
  const preload = () => (started ??= load().then(
    (m) => { loaded = m.default; },
    (err: unknown) => { started = null; throw err; },
  ));
  const Lazy = lazy(async () => { await preload(); return { default: loaded! }; });
  function Screen(props: P) {
    // chosen once per mount: switching from the lazy wrapper to the loaded component would remount the screen
    const [Ready] = useState(() => loaded);
    return Ready ? <Ready {...props} /> : <Lazy {...props} />;
  }
  Screen.preload = preload;
  return Screen;
}
