import { ANIMATION_DEADLINE_MS } from './ui-constants.ts';

/** The media query of a reader who asked the system for less motion. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/**
 * How long the app's transitions take: a menu opening, a dialog or toast
 * coming and going, a loading screen fading in. Short enough to feel quick
 * and never past the spec's deadline; nothing at all for a reader who asked
 * for reduced motion.
 */
export function motionMs(reduced: boolean): number {
  return reduced ? 0 : Math.min(150, ANIMATION_DEADLINE_MS);
}

/**
 * Writes the durations into CSS variables (styles.css uses them for every
 * transition and for PrimeReact's overlays) and follows the system setting
 * live, so a change in the reader's settings reaches the open page.
 */
export function installMotion(doc: Document = document, media: (q: string) => MediaQueryList | null = (q) => window.matchMedia?.(q) ?? null): () => void {
  const mq = media(REDUCED_MOTION_QUERY);
  const apply = () => {
    const reduced = !!mq?.matches;
    const root = doc.documentElement;
    root.style.setProperty('--bo-motion', `${motionMs(reduced)}ms`);
    root.style.setProperty('--bo-motion-deadline', `${reduced ? 0 : ANIMATION_DEADLINE_MS}ms`);
    root.classList.toggle('bo-reduced-motion', reduced);
  };
  apply();
  mq?.addEventListener?.('change', apply);
  return () => mq?.removeEventListener?.('change', apply);
}
