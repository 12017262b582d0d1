import type { Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { TokenClaims } from './token-service.ts';
import type { AuthEntities } from './auth-entities.ts';
import { CUSTOMER_ROLE, CUSTOMER_ROLE_ID, type RoleDetail, type RoleInfo } from '../../engine/permissions/customer-role.ts';

export interface UserTypeInfo {
  id: number;
  name: string;
  type_detail: unknown;
  display_detail: unknown;
  is_show_all_menu: boolean;
  is_limit_inventory_to_access: boolean;
  is_limit_company_to_access: boolean;
}

export interface SessionUser {
  id: number;
  username: string;
  email: string | null;
  role_id: number;
  customer_id: number | null;
  user_avatar: string | null;
  inventory_allow: number[];
  branch_company: number[];
}

export interface Principal {
  user: SessionUser;
  role: RoleInfo;
  userType: UserTypeInfo | null;
  jti: string;
  exp: number;
}

export function principalOf(ctx: RequestContext): Principal | null {
  return (ctx.principal as Principal | undefined) ?? null;
}

function jsonValue(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v); } catch { return null; }
}

export function idList(v: unknown): number[] {
  const list = jsonValue(v);
  return Array.isArray(list) ? list.map(Number).filter((n) => Number.isInteger(n)) : [];
}

export function parseRoleDetail(v: unknown): RoleDetail {
  const d = jsonValue(v);
  return d && typeof d === 'object' && !Array.isArray(d) ? (d as RoleDetail) : {};
}

export async function loadRole(k: Kysely<any>, t: AuthEntities, roleId: number): Promise<RoleInfo | null> {
  if (roleId === CUSTOMER_ROLE_ID) return CUSTOMER_ROLE;
  const r = await k.selectFrom(t.role).selectAll().where('id', '=', roleId).executeTakeFirst();
  if (!r) return null;
  return { id: Number(r.id), name: r.name, role_detail: parseRoleDetail(r.role_detail), production_report_print_times: Number(r.production_report_print_times ?? 1) };
}

export async function loadUserType(k: Kysely<any>, t: AuthEntities, userTypeId: number | null, roleId: number): Promise<UserTypeInfo | null> {
  let q = k.selectFrom(t.type).selectAll();
  q = userTypeId ? q.where('id', '=', userTypeId) : q.where('role_id', '=', roleId).orderBy('id').limit(1);
  const row = await q.executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id), name: row.name, type_detail: jsonValue(row.type_detail), display_detail: jsonValue(row.display_detail),
    is_show_all_menu: Number(row.is_show_all_menu) === 1,
    is_limit_inventory_to_access: Number(row.is_limit_inventory_to_access) === 1,
    is_limit_company_to_access: Number(row.is_limit_company_to_access) === 1,
  };
}

/**
 * Loads who a verified token speaks for, or null when the token no longer
 * counts: the account is gone or inactive, the token was revoked, or the
 * user's token version moved (password or role change, deactivation).
 */
export async function loadPrincipal(db: Database, t: AuthEntities, claims: TokenClaims): Promise<Principal | null> {
  const k = db.kysely;
  const u = await k.selectFrom(`${t.account} as u`)
    .innerJoin('user_credential as c', 'c.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.email', 'u.role_id', 'u.user_type_id', 'u.customer_id', 'u.user_avatar', 'u.inventory_allow', 'u.branch_company', 'u.is_active', 'u.is_deleted', 'c.token_version'])
    .where('u.id', '=', claims.userId)
    .executeTakeFirst();
  if (!u || Number(u.is_active) !== 1 || Number(u.is_deleted) === 1 || Number(u.token_version) !== claims.version) return null;
  const revoked = await k.selectFrom('revoked_token').select('jti').where('jti', '=', claims.jti).executeTakeFirst();
  if (revoked) return null;
  const role = await loadRole(k, t, Number(u.role_id));
  if (!role) return null;
  return {
    user: {
      id: Number(u.id), username: u.username, email: u.email ?? null, role_id: Number(u.role_id),
      customer_id: u.customer_id === null || u.customer_id === undefined ? null : Number(u.customer_id),
      user_avatar: u.user_avatar ?? null, inventory_allow: idList(u.inventory_allow), branch_company: idList(u.branch_company),
    },
    role,
    userType: await loadUserType(k, t, u.user_type_id ? Number(u.user_type_id) : null, Number(u.role_id)),
    jti: claims.jti,
    exp: claims.exp,
  };
}
