import type { Kysely } from 'kysely';
import type { Principal } from './principal.ts';
import type { AuthEntities } from './auth-entities.ts';
import { parseRoleDetail } from './principal.ts';
import { accountRights, activeAdminIds, exceeds, exceededFlag, isFullAdmin, refuse, rightsOf } from './grant-rules.ts';

type Row = Record<string, unknown>;
const GRANTS = ['role_id', 'user_type_id', 'inventory_allow', 'branch_company'];

const changed = (before: Row | null, after: Row, f: string) => !before || JSON.stringify(before[f] ?? null) !== JSON.stringify(after[f] ?? null);
const isActive = (row: Row) => row.is_active === true || Number(row.is_active) === 1;

/**
 * Writes to accounts, roles and user types that need the database to judge:
 * nobody grants more than they hold, touches an account or role that holds
 * more than they do, or leaves the business without an active administrator.
 */
export async function guardAccountWrite(trx: Kysely<any>, t: AuthEntities, p: Principal, menuKeys: string[], entity: string, before: Row | null, after: Row | null): Promise<void> {
  const mine = rightsOf(p);
  if (entity === t.account) {
    if (before && Number(before.id) !== p.user.id) {
      const why = exceeds(mine, await accountRights(trx, t, before), menuKeys);
      if (why) refuse(`This account holds more than you do (${why}), so only someone with at least its rights may change it`, 'holds_more');
    }
    if (after && GRANTS.some((f) => changed(before, after, f))) {
      const granted = await accountRights(trx, t, after);
      if (isFullAdmin(granted.detail) && !isFullAdmin(mine.detail)) refuse('Only a full administrator can give an account the Administrator role', 'admin_only');
      const why = exceeds(mine, granted, menuKeys);
      if (why) refuse(`You cannot grant ${why}: it is more than you hold yourself`, 'grant_exceeds');
    }
    if (before && isActive(before) && isFullAdmin((await accountRights(trx, t, before)).detail)) {
      const stillAdmin = after && isActive(after) && isFullAdmin((await accountRights(trx, t, after)).detail);
      if (!stillAdmin && !(await activeAdminIds(trx, t)).some((id) => id !== Number(before.id))) {
        refuse('This is the last active administrator: make another account an administrator first', 'last_admin');
      }
    }
    return;
  }
  if (entity === t.role) {
    if (before) {
      const f = exceededFlag(mine.detail, parseRoleDetail(before.role_detail), menuKeys);
      if (f) refuse(`This role holds more than you do (${f}), so you cannot change or delete it`, 'holds_more');
    }
    if (after) {
      const f = exceededFlag(mine.detail, parseRoleDetail(after.role_detail), menuKeys);
      if (f) refuse(`You cannot give a role the permission ${f}: it is more than you hold yourself`, 'grant_exceeds');
    }
    if (before && isFullAdmin(parseRoleDetail(before.role_detail)) && !(after && isFullAdmin(parseRoleDetail(after.role_detail)))) {
      const others = await trx.selectFrom(t.account).select('id').where('role_id', '=', Number(before.id)).execute();
      const admins = await activeAdminIds(trx, t);
      if (!admins.some((id) => !others.some((o) => Number(o.id) === id))) refuse('This role gives the last active administrators their rights: make another account an administrator first', 'last_admin');
    }
    return;
  }
  if (entity === t.type) {
    for (const [limit, what] of [['is_limit_inventory_to_access', 'inventories'], ['is_limit_company_to_access', 'companies']] as const) {
      if (!mine.type?.[limit]) continue;
      const opens = (row: Row | null) => row && !(row[limit] === true || Number(row[limit]) === 1);
      if (opens(before)) refuse(`This user type reaches every one of the ${what}, more than you may; you cannot change or delete it`, 'holds_more');
      if (opens(after)) refuse(`You cannot make a user type that reaches every one of the ${what}: yours is limited`, 'grant_exceeds');
    }
  }
}
