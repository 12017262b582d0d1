import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import { writeAudit } from '../audit/audit-log.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { contextOf, type Authenticator } from './authenticator.ts';
import { hashPassword, MAX_PASSWORD, MIN_PASSWORD, passwordProblem, verifyPassword } from './password-hasher.ts';

const PASSWORD_LIMITS = { min: MIN_PASSWORD, max: MAX_PASSWORD };
import { principalOf } from './principal.ts';
import { CUSTOMER_ROLE_ID } from '../../engine/permissions/customer-role.ts';
import type { SignInLimits } from './sign-in-limiter.ts';
import type { PermissionPolicy } from './permission-policy.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';

export interface AuthRouteDeps {
  db: Kysely<any>;
  auth: Authenticator;
  limiter: SignInLimits;
  policy: PermissionPolicy;
  service: EntityService;
  hashLogN: number;
}

const FAILED = 'Incorrect username or password';
let dummyHash: Promise<string> | null = null;

function credentials(body: unknown): { username: string; password: string } {
  const b = body as { username?: unknown; password?: unknown } | null;
  const fields = [];
  if (typeof b?.username !== 'string' || !b.username.trim() || b.username.length > 64) fields.push({ field: 'username', code: 'required', message: 'is required' });
  if (typeof b?.password !== 'string' || !b.password || b.password.length > 1024) fields.push({ field: 'password', code: 'required', message: 'is required' });
  if (fields.length) throw new AppError('VALIDATION_FAILED', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
  return { username: (b!.username as string).trim(), password: b!.password as string };
}

function listText(v: unknown): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v ?? []);
}

/** Site setting `is_single_session`, read on every sign-in so a change applies at once. */
async function singleSession(db: Kysely<any>, registry: SchemaRegistry): Promise<boolean> {
  const settings = registry.siteSettings();
  if (!settings) return false;
  const row = await db.selectFrom(settings.name).select('is_single_session').orderBy('id').limit(1).executeTakeFirst();
  return Number(row?.is_single_session ?? 0) === 1;
}

/** Bumps and reads the version in one transaction, so two sign-ins at once cannot both keep a valid token. */
async function nextTokenVersion(db: Kysely<any>, userId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('user_credential').set((eb) => ({ token_version: eb('token_version', '+', 1) })).where('user_id', '=', userId).execute();
    const row = await trx.selectFrom('user_credential').select('token_version').where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.token_version);
  });
}

export function registerAuthRoutes(app: FastifyInstance, d: AuthRouteDeps): void {
  // the accounts' entity (`holds: userAccounts`), as merged when the routes are made (its label and fields are not read here)
  const accounts = d.service.entity(d.service.registry.held('userAccounts'));
  const signIn = async (request: FastifyRequest, customerId: number | null) => {
    const { username, password } = credentials(request.body);
    const ip = request.ip;
    const wait = await d.limiter.retryAfter(ip, username);
    if (wait > 0) {
      await writeAudit(d.db, { action: 'signin_failed', userId: null, username, ip, message: 'rate limited' });
      throw new AppError('RATE_LIMITED', `Too many failed sign-in attempts; try again in ${Math.ceil(wait / 60)} minute(s)`, { retry_after_seconds: wait }, { minutes: Math.ceil(wait / 60) });
    }
    const row = await d.db.selectFrom(`${accounts.name} as u`).innerJoin('user_credential as c', 'c.user_id', 'u.id')
      .select(['u.id', 'u.username', 'u.email', 'u.role_id', 'u.customer_id', 'u.user_avatar', 'u.inventory_allow', 'u.branch_company', 'u.is_active', 'c.password_hash', 'c.token_version'])
      .where('u.username', '=', username).where('u.is_deleted', '=', 0).executeTakeFirst();
    // the same work and the same answer whether the account exists or not
    dummyHash ??= hashPassword('not-a-real-password', d.hashLogN);
    const ok = await verifyPassword(password, row ? String(row.password_hash) : await dummyHash);
    const portal = customerId !== null;
    const eligible = row && Number(row.is_active) === 1 && (portal
      ? Number(row.role_id) === CUSTOMER_ROLE_ID && Number(row.customer_id) === customerId
      : Number(row.role_id) !== CUSTOMER_ROLE_ID);
    if (!ok || !eligible) {
      await d.limiter.fail(ip, username);
      await writeAudit(d.db, { action: 'signin_failed', userId: row ? Number(row.id) : null, username, ip, message: portal ? `customer page ${customerId}` : null });
      throw new AppError('UNAUTHORIZED', FAILED, undefined, { reason: 'bad_credentials' });
    }
    await d.limiter.succeed(ip, username);
    const single = await singleSession(d.db, d.service.registry);
    // one session per user: a new sign-in moves the account's token version, which ends every older token
    const version = single ? await nextTokenVersion(d.db, Number(row.id)) : Number(row.token_version);
    const { token } = await d.auth.tokens.sign(Number(row.id), version);
    if (single) await d.auth.invalidate();
    await writeAudit(d.db, { action: 'signin', userId: Number(row.id), username, ip, message: portal ? `customer page ${customerId}` : null });
    return {
      success: true,
      data: {
        id_token: token,
        user: {
          id: Number(row.id), username: row.username, role_id: Number(row.role_id), email: row.email ?? null,
          user_avatar: row.user_avatar ?? null, inventory_allow: listText(row.inventory_allow), branch_company: listText(row.branch_company),
          customer_id: row.customer_id === null ? null : Number(row.customer_id),
        },
      },
    };
  };

  app.post('/api/auth/signin', async (request) => signIn(request, null));
  app.post<{ Params: { customerId: string } }>('/api/auth/signin/customer/:customerId', async (request) => {
    const customerId = parseRecordId(request.params.customerId);
    if (customerId === null) throw new AppError('NOT_FOUND', 'There is no such customer page', undefined, { reason: 'customer_page' });
    return signIn(request, customerId);
  });

  app.post('/api/auth/signout', async (request) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    await d.db.insertInto('revoked_token').values({ jti: p.jti, expires_at: p.exp }).execute();
    await d.db.deleteFrom('revoked_token').where('expires_at', '<', Math.floor(Date.now() / 1000)).execute();
    await d.auth.invalidate();
    await writeAudit(d.db, { action: 'signout', userId: p.user.id, username: p.user.username, ip: request.ip });
    return { success: true, data: { signed_out: true } };
  });

  const setPassword = async (userId: number, password: string) => {
    const hash = await hashPassword(password, d.hashLogN);
    await d.db.transaction().execute(async (trx) => {
      const cred = await trx.selectFrom('user_credential').select('token_version').where('user_id', '=', userId).executeTakeFirst();
      if (cred) {
        await trx.updateTable('user_credential').set({ password_hash: hash, token_version: Number(cred.token_version) + 1, password_changed_at: new Date().toISOString() }).where('user_id', '=', userId).execute();
      } else {
        await trx.insertInto('user_credential').values({ user_id: userId, password_hash: hash, token_version: 1, password_changed_at: new Date().toISOString() }).execute();
      }
    });
    await d.auth.invalidate();
  };

  /** Own password: needs the current one; answers a fresh token because the change ends every other session. */
  app.post('/api/auth/password', async (request) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    const b = request.body as { current_password?: unknown; new_password?: unknown } | null;
    const problem = passwordProblem(b?.new_password);
        if (problem) throw new AppError('VALIDATION_FAILED', `new_password: ${problem}`, { fields: [{ field: 'new_password', code: 'password', message: problem, params: PASSWORD_LIMITS }] });
    // guessing the current password through a stolen session is throttled like sign-in
    const key = `password-change:${p.user.username}`;
    const wait = await d.limiter.retryAfter(request.ip, key);
    if (wait > 0) throw new AppError('RATE_LIMITED', `Too many wrong current passwords; try again in ${Math.ceil(wait / 60)} minute(s)`, { retry_after_seconds: wait });
    const cred = await d.db.selectFrom('user_credential').select('password_hash').where('user_id', '=', p.user.id).executeTakeFirst();
    if (typeof b?.current_password !== 'string' || !cred || !(await verifyPassword(b.current_password, String(cred.password_hash)))) {
      await d.limiter.fail(request.ip, key);
      await writeAudit(d.db, { action: 'password_change_failed', userId: p.user.id, username: p.user.username, ip: request.ip, entity: accounts.name, recordId: p.user.id });
      throw new AppError('VALIDATION_FAILED', 'current_password: is not correct', { fields: [{ field: 'current_password', code: 'password', message: 'is not correct' }] });
    }
    await d.limiter.succeed(request.ip, key);
    await setPassword(p.user.id, b.new_password as string);
    const v = await d.db.selectFrom('user_credential').select('token_version').where('user_id', '=', p.user.id).executeTakeFirstOrThrow();
    const { token } = await d.auth.tokens.sign(p.user.id, Number(v.token_version));
    await writeAudit(d.db, { action: 'password_change', userId: p.user.id, username: p.user.username, ip: request.ip, entity: accounts.name, recordId: p.user.id });
    return { success: true, data: { id_token: token } };
  });

  /** An administrator sets someone else's password (edit on user_account); their sessions end. */
  app.put<{ Params: { id: string } }>(`/api/${accounts.name}/:id/password`, async (request) => {
    const ctx = contextOf(request);
    const p = principalOf(ctx)!;
    const id = parseRecordId(request.params.id) ?? NaN;
    if (!d.policy.can(ctx, d.policy.menuKeyOf(accounts), 'edit')) throw new AppError('FORBIDDEN', 'Your role may not set passwords');
    if (id === p.user.id) throw new AppError('FORBIDDEN', 'Change your own password with your current password (POST /api/auth/password)');
    const target = await d.service.get(accounts.name, id, ctx);
    // setting a password takes the account over: only for accounts that hold no more than the caller
    await d.policy.guardWrite(d.db, ctx, accounts, target, target);
    const password = (request.body as { password?: unknown } | null)?.password;
    const problem = passwordProblem(password);
    if (problem) throw new AppError('VALIDATION_FAILED', `password: ${problem}`, { fields: [{ field: 'password', code: 'password', message: problem, params: PASSWORD_LIMITS }] });
    await setPassword(id, password as string);
    await writeAudit(d.db, { action: 'password_change', userId: p.user.id, username: p.user.username, ip: request.ip, entity: accounts.name, recordId: id });
    return { success: true, data: { id } };
  });
}
