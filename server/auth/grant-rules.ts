import type { Kysely } from 'kysely';
import type { RoleDetail, PermissionFlags } from '../../engine/permissions/customer-role.ts';
import { AppError } from '../errors/app-error.ts';
import type { AuthEntities } from './auth-entities.ts';
import { idList, loadRole, loadUserType, parseRoleDetail, type Principal, type UserTypeInfo } from './principal.ts';

type Row = Record<string, unknown>;
const FLAGS: (keyof PermissionFlags)[] = ['view', 'edit', 'print', 'export', 'email'];
/** Stands for every menu key a detail does not name, where only "*" applies. */
const ANY_OTHER = '\u0000other';

function flag(detail: RoleDetail, key: string, f: keyof PermissionFlags): boolean {
  return (key !== ANY_OTHER ? detail[key]?.[f] : undefined) ?? detail['*']?.[f] ?? false;
}

/** The first "key.flag" that `granted` allows and `holder` does not, or null when holder covers it all. */
export function exceededFlag(holder: RoleDetail, granted: RoleDetail, menuKeys: Iterable<string>): string | null {
  const keys = new Set([...menuKeys, ...Object.keys(holder), ...Object.keys(granted), ANY_OTHER]);
  keys.delete('*');
  for (const key of keys) {
    for (const f of FLAGS) if (flag(granted, key, f) && !flag(holder, key, f)) return `${key === ANY_OTHER ? '*' : key}.${f}`;
  }
  return null;
}

/** Every flag on every menu key: the Administrator role. */
export function isFullAdmin(detail: RoleDetail): boolean {
  return FLAGS.every((f) => detail['*']?.[f] === true) && Object.entries(detail).every(([, d]) => FLAGS.every((f) => d[f] !== false));
}

/** What an account may do: its role's flags and its user type's limits with its allowances. */
export interface Rights {
  detail: RoleDetail;
  type: Pick<UserTypeInfo, 'is_limit_inventory_to_access' | 'is_limit_company_to_access'> | null;
  /** the inventories and companies an account is allowed (inventory_allow, branch_company) */
  inventories: number[];
  companies: number[];
}

export function rightsOf(p: Principal): Rights {
  return { detail: p.role.role_detail, type: p.userType, inventories: p.user.inventory_allow, companies: p.user.branch_company };
}

export async function accountRights(k: Kysely<any>, t: AuthEntities, row: Row): Promise<Rights> {
  const roleId = Number(row.role_id);
  const role = Number.isInteger(roleId) ? await loadRole(k, t, roleId) : null;
  const type = await loadUserType(k, t, row.user_type_id ? Number(row.user_type_id) : null, roleId);
  return { detail: role?.role_detail ?? {}, type, inventories: idList(row.inventory_allow), companies: idList(row.branch_company) };
}

/** Why `granted` is more than `holder` has, or null when the holder covers it. */
export function exceeds(holder: Rights, granted: Rights, menuKeys: Iterable<string>): string | null {
  const f = exceededFlag(holder.detail, granted.detail, menuKeys);
  if (f) return `the permission ${f}`;
  for (const [limit, what] of [['is_limit_inventory_to_access', 'inventories'], ['is_limit_company_to_access', 'companies']] as const) {
    if (!holder.type?.[limit]) continue;
    if (!granted.type?.[limit]) return `access to every ${what.replace(/ies$/, 'y')} (yours is limited)`;
    const extra = granted[what].filter((x) => !holder[what].includes(x));
    if (extra.length) return `${what} you are not allowed (${extra.join(', ')})`;
  }
  return null;
}

/** Accounts that are active, not deleted, and hold the Administrator rights. */
export async function activeAdminIds(k: Kysely<any>, t: AuthEntities): Promise<number[]> {
  const rows = await k.selectFrom(`${t.account} as u`).innerJoin(`${t.role} as r`, 'r.id', 'u.role_id')
    .select(['u.id', 'r.role_detail']).where('u.is_active', '=', 1).where('u.is_deleted', '=', 0).execute();
  return rows.filter((r) => isFullAdmin(parseRoleDetail(r.role_detail))).map((r) => Number(r.id));
}

export function refuse(message: string, reason: string): never {
  throw new AppError('FORBIDDEN', message, undefined, { reason });
}
