import { DEFAULT_BUSINESS_TIME_ZONE } from '../../engine/documents/business-time.ts';

/**
 * The business's time zone for this process (BUSINESS_TIME_ZONE, read by app-config.ts and
 * set by bootstrap). Kept here rather than passed through every call because numbering and
 * "$NOW" defaults sit deep inside writes; tests pass a zone explicitly where they need another.
 */
let current = DEFAULT_BUSINESS_TIME_ZONE;

export function setBusinessTimeZone(timeZone: string): void {
  current = timeZone;
}

export function businessTimeZone(): string {
  return current;
}
