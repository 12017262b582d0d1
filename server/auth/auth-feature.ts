import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import { auditWrites } from '../audit/audit-log.ts';
import { ensureAuthTables } from './auth-tables.ts';
import { ensureBuiltinRoles } from './builtin-accounts.ts';
import { registerAuthRoutes } from './auth-routes.ts';
import { principalOf } from './principal.ts';
import { authEntities, isAuthEntity } from './auth-entities.ts';
import type { Authenticator } from './authenticator.ts';
import type { PermissionPolicy } from './permission-policy.ts';
import type { SignInLimits } from './sign-in-limiter.ts';

export interface AuthContext extends FeatureBase {
  auth: Authenticator;
  policy: PermissionPolicy;
  limiter: SignInLimits;
  hashLogN: number;
}

/** Accounts, roles and sessions; first in the list, so every write is audited before any other listener sees it. */
export const authFeature: Feature<AuthContext> = {
  name: 'auth',
  tables: [ensureAuthTables, ensureBuiltinRoles],
  listeners: [
    { name: 'audit every write', install: (service) => service.onWrite(auditWrites((e) => (e.ctx.principal ? principalOf(e.ctx)!.user.username : null), (trx, step) => service.beforeCommit(trx, step, 'settle'))) },
    {
      name: 'a role change or deactivation ends every session of that account',
      install: (service) => service.onWrite(async (trx, e) => {
        const changed = (f: string) => JSON.stringify(e.before?.[f] ?? null) !== JSON.stringify(e.after?.[f] ?? null);
        if (e.action === 'delete' || ['role_id', 'user_type_id', 'is_active'].some(changed)) {
          await trx.updateTable('user_credential').set((eb) => ({ token_version: eb('token_version', '+', 1) })).where('user_id', '=', e.id).execute();
        }
      }, (entity) => entity.holds === 'userAccounts'),
    },
    // after commit: the cache is dropped and open sockets are judged on what was stored (on every instance with Redis)
    // the entities whose change alters what a signed-in session may do: accounts, their roles and user types (auth-entities.ts)
    { name: 'sessions read again after an account change', install: (service, c) => { const t = authEntities(service.registry); service.afterCommit(() => { void c.auth.invalidate(); }, (entity) => isAuthEntity(t, entity.name)); } },
  ],
  routes: (c) => registerAuthRoutes(c.app, { db: c.service.db.kysely, auth: c.auth, limiter: c.limiter, policy: c.policy, service: c.service, hashLogN: c.hashLogN }),
};
