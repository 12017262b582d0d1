import type { RequestContext } from '../crud/access-policy.ts';
import { principalOf } from './principal.ts';
import type { PermissionFlags } from '../../engine/permissions/customer-role.ts';
import { AppError } from '../errors/app-error.ts';

const ALL: (keyof PermissionFlags)[] = ['view', 'edit', 'print', 'export', 'email'];

/**
 * An administrator, for database management: a role whose role_detail grants
 * every flag on "*", or view and edit on the menu key "db_manage" itself
 * (docs/permissions.md). "*" with fewer flags is not enough.
 */
export function isAdministrator(ctx: RequestContext): boolean {
  const p = principalOf(ctx);
  if (!p) return ctx.userId === null;
  const d = p.role.role_detail as Record<string, Partial<PermissionFlags> | undefined>;
  const star = d['*'];
  if (star && ALL.every((f) => star[f] === true)) return true;
  const own = d.db_manage;
  return !!own && own.view === true && own.edit === true;
}

export function assertAdministrator(ctx: RequestContext): void {
  if (!isAdministrator(ctx)) throw new AppError('FORBIDDEN', 'Only an administrator may manage the database');
}
