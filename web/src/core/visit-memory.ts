/**
 * Which screens this browser opens most, kept locally (per user) so Home can
 * offer them as shortcuts. Only the first path segment counts: /customer/5 is a
 * visit to /customer.
 */
const KEY = 'screen_visits';
const MAX_ENTRIES = 60;

type Visits = Record<string, { n: number; last: number }>;

function read(userId: number | null): Visits {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, Visits>;
    return all[String(userId ?? 0)] ?? {};
  } catch {
    return {};
  }
}

export function recordVisit(pathname: string, userId: number | null, now = Date.now()): void {
  const first = pathname.split('/').filter(Boolean)[0];
  if (!first || first === 'signin' || first === 'customerpage' || first === 'loading') return;
  const path = `/${first}`;
  try {
    const all = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, Visits>;
    const mine = all[String(userId ?? 0)] ?? {};
    mine[path] = { n: (mine[path]?.n ?? 0) + 1, last: now };
    // keep the list small: drop the least used
    const kept = Object.entries(mine).sort((a, b) => b[1].n - a[1].n || b[1].last - a[1].last).slice(0, MAX_ENTRIES);
    all[String(userId ?? 0)] = Object.fromEntries(kept);
    localStorage.setItem(KEY, JSON.stringify(all));
  } catch { /* storage full or blocked: shortcuts are a convenience */ }
}

/** Paths by use, most used first. */
export function mostVisited(userId: number | null, limit = 6): string[] {
  return Object.entries(read(userId)).sort((a, b) => b[1].n - a[1].n || b[1].last - a[1].last).slice(0, limit).map(([p]) => p);
}
