/**
 * The oldest schema version among the answers the screens now show (entity
 * schemas and the language content, whose labels come from the schemas). A
 * `schema-changed` announcement newer than it means something on screen is
 * stale; one not newer means everything shown already has it, so nothing is
 * fetched again (each socket hears the current version as it connects).
 */
let oldest: number | undefined;

export function noteLoadedVersion(version: unknown): void {
  if (typeof version !== 'number' || !Number.isFinite(version)) return;
  oldest = oldest === undefined ? version : Math.min(oldest, version);
}

/** undefined when nothing versioned has been loaded since the last refresh. */
export function oldestLoadedVersion(): number | undefined {
  return oldest;
}

export function forgetLoadedVersions(): void {
  oldest = undefined;
}
