// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { installMotion, motionMs, REDUCED_MOTION_QUERY } from './motion.ts';
import { ANIMATION_DEADLINE_MS } from './ui-constants.ts';

function fakeMedia(matches: boolean) {
  const listeners: Array<() => void> = [];
  const mq = { matches, addEventListener: (_: string, f: () => void) => listeners.push(f), removeEventListener: () => undefined } as unknown as MediaQueryList;
  return { mq, flip: (m: boolean) => { (mq as { matches: boolean }).matches = m; listeners.forEach((f) => f()); } };
}

describe('the animation deadline', () => {
  it('transitions take at most the deadline, and none under reduced motion, following the system live', () => {
    const { mq, flip } = fakeMedia(false);
    let asked = '';
    installMotion(document, (q) => { asked = q; return mq; });
    expect(asked).toBe(REDUCED_MOTION_QUERY);
    const motion = () => document.documentElement.style.getPropertyValue('--bo-motion');
    expect(parseFloat(motion())).toBeGreaterThan(0);
    expect(parseFloat(motion())).toBeLessThanOrEqual(ANIMATION_DEADLINE_MS);
    expect(document.documentElement.style.getPropertyValue('--bo-motion-deadline')).toBe(`${ANIMATION_DEADLINE_MS}ms`);
    flip(true);
    expect(motion()).toBe('0ms');
    expect(document.documentElement.classList.contains('bo-reduced-motion')).toBe(true);
    expect(motionMs(true)).toBe(0);
  });

  it('no transition or animation in the app\'s style sheet names a duration of its own: each takes the motion variables (a looping spinner aside)', () => {
    const css = readFileSync(resolve(__dirname, '../styles.css'), 'utf8');
    const offenders = [...css.matchAll(/(?:transition|animation)(?:-duration)?\s*:\s*([^;}]+)/g)]
      .map((m) => m[1]!.trim())
      .filter((v) => v !== 'none' && !/infinite/.test(v) && /\d(?:m?s)\b/.test(v) && !/var\(--bo-motion/.test(v));
    expect(offenders).toEqual([]);
  });
});
