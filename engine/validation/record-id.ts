/** Ids are 32-bit integer columns on both dialects; anything else cannot name a row. */
export const MAX_ID = 2_147_483_647;

/** The id a path segment or body value names, or null when it cannot be a positive row id. */
export function parseRecordId(raw: unknown): number | null {
  const n = typeof raw === 'string' ? (/^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN) : typeof raw === 'number' ? raw : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAX_ID ? n : null;
}

/** Like parseRecordId, but also accepts the negative ids of built-in rows (the Customer role is -1). */
export function parseAnyId(raw: unknown): number | null {
  const n = typeof raw === 'string' ? (/^-?[0-9]{1,10}$/.test(raw) ? Number(raw) : NaN) : typeof raw === 'number' ? raw : NaN;
  return Number.isInteger(n) && Math.abs(n) <= MAX_ID ? n : null;
}
