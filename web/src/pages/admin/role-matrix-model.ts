/**
 * The role editor's matrix over role_detail, the JSON the server enforces:
 * {"menu_key": {"view": true, "edit": false, …}, "*": {…}}. The model is the
 * role_detail itself: a tick writes an explicit flag on that key and leaves
 * every other key and flag exactly as it was, so an untouched role saves to
 * the same JSON it was read from.
 */
export const FLAGS = ['view', 'edit', 'print', 'export', 'email'] as const;
export type Flag = (typeof FLAGS)[number];
export type FlagSet = Partial<Record<Flag, boolean>>;
export type RoleDetail = Record<string, FlagSet>;
export const ALL_KEY = '*';

/** Reads role_detail as the API answers it (an object, or JSON text); anything else is an empty role. */
export function parseRoleDetail(v: unknown): RoleDetail {
  let d = v;
  if (typeof v === 'string') {
    try { d = JSON.parse(v); } catch { return {}; }
  }
  if (!d || typeof d !== 'object' || Array.isArray(d)) return {};
  return d as RoleDetail;
}

/** Whether the flag holds on a key, as the server reads it: the key's own value, else "*", else no. */
export function effective(detail: RoleDetail, key: string, flag: Flag): boolean {
  const own = detail[key]?.[flag];
  if (typeof own === 'boolean') return own;
  if (key === ALL_KEY) return false;
  return detail[ALL_KEY]?.[flag] === true;
}

/** True when the key names the flag itself (false when it only inherits it from "*"). */
export function isExplicit(detail: RoleDetail, key: string, flag: Flag): boolean {
  return typeof detail[key]?.[flag] === 'boolean';
}

export function setFlag(detail: RoleDetail, key: string, flag: Flag, value: boolean): RoleDetail {
  return { ...detail, [key]: { ...(detail[key] ?? {}), [flag]: value } };
}

export function rowAll(detail: RoleDetail, key: string): boolean {
  return FLAGS.every((f) => effective(detail, key, f));
}

/** Ticks a whole row: every flag on when any is off, else every flag off. */
export function toggleRow(detail: RoleDetail, key: string): RoleDetail {
  const value = !rowAll(detail, key);
  return { ...detail, [key]: { ...(detail[key] ?? {}), ...Object.fromEntries(FLAGS.map((f) => [f, value])) } };
}

export function columnAll(detail: RoleDetail, keys: string[], flag: Flag): boolean {
  return keys.length > 0 && keys.every((k) => effective(detail, k, flag));
}

/** Ticks a whole column over the keys shown: on when any is off, else off. */
export function toggleColumn(detail: RoleDetail, keys: string[], flag: Flag): RoleDetail {
  const value = !columnAll(detail, keys, flag);
  let out = detail;
  for (const k of keys) out = setFlag(out, k, flag, value);
  return out;
}

/** Keys in role_detail that no menu lists (kept as they are, shown apart). */
export function unknownKeys(detail: RoleDetail, known: string[]): string[] {
  const set = new Set([ALL_KEY, ...known]);
  return Object.keys(detail).filter((k) => !set.has(k)).sort();
}

/** The JSON sent back to the server. */
export function serialize(detail: RoleDetail): RoleDetail {
  return detail;
}
