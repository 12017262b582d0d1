import { randomBytes } from 'node:crypto';
import type { Database } from '../db/dialect-adapter.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import { hashPassword, passwordProblem } from './password-hasher.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { authEntities } from './auth-entities.ts';
import { CUSTOMER_ROLE, CUSTOMER_ROLE_ID } from '../../engine/permissions/customer-role.ts';

export const ADMIN_ROLE_DETAIL = { '*': { view: true, email: true, print: true, export: true, edit: true } };

/** The Customer role row exists always (id -1), so accounts can link to it; the code keeps its rights fixed. */
export async function ensureBuiltinRoles(db: Database, registry: SchemaRegistry): Promise<void> {
  const k = db.kysely;
  const { role: roles } = authEntities(registry);
  const found = await k.selectFrom(roles).select('id').where('id', '=', CUSTOMER_ROLE_ID).executeTakeFirst();
  if (found) return;
  const now = new Date().toISOString();
  await k.insertInto(roles).values({
    id: CUSTOMER_ROLE_ID, name: CUSTOMER_ROLE.name, role_detail: JSON.stringify(CUSTOMER_ROLE.role_detail),
    production_report_print_times: CUSTOMER_ROLE.production_report_print_times, description: 'Built-in role for the customer portal',
    created_at: now, updated_at: now,
  }).execute();
}

export async function createAccount(db: Database, service: EntityService, body: Record<string, unknown>, password: string, hashLogN?: number): Promise<number> {
  const user = await service.create(authEntities(service.registry).account, body, systemContext);
  const now = new Date().toISOString();
  await db.kysely.insertInto('user_credential').values({ user_id: Number(user.id), password_hash: await hashPassword(password, hashLogN), token_version: 1, password_changed_at: now }).execute();
  return Number(user.id);
}

/**
 * First start: an administrator role, user type and the `admin` account, with
 * ADMIN_PASSWORD or a random password that is returned to be printed once.
 */
export async function ensureAdmin(db: Database, service: EntityService, password: string | undefined, hashLogN?: number): Promise<{ created: boolean; password?: string }> {
  const k = db.kysely;
  const t = authEntities(service.registry);
  if (await k.selectFrom(t.account).select('id').where('username', '=', 'admin').executeTakeFirst()) return { created: false };
  if (password !== undefined && passwordProblem(password)) throw new Error(`ADMIN_PASSWORD ${passwordProblem(password)}`);
  const role = await service.create(t.role, { name: 'Administrator', role_detail: ADMIN_ROLE_DETAIL, production_report_print_times: 99, description: 'Full access' }, systemContext);
  await service.create(t.type, { name: 'Administrator', role_id: role.id, is_show_all_menu: true }, systemContext);
  const generated = password ?? randomBytes(12).toString('base64url');
  await createAccount(db, service, { username: 'admin', role_id: role.id, first_name: 'Administrator', inventory_allow: [], branch_company: [] }, generated, hashLogN);
  return { created: true, password: password === undefined ? generated : undefined };
}
