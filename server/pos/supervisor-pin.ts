import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { hashPassword, verifyPassword } from '../auth/password-hasher.ts';
import { loadRole, principalOf, type Principal } from '../auth/principal.ts';
import { authEntities } from '../auth/auth-entities.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { copyNeedsSupervisor, countSlipPrint } from './slip-prints.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';

type Row = Record<string, unknown>;
export const PIN_TABLE = 'pos_supervisor_pin';
/** A PIN is short by nature; its guard is the lock-out below, so a cheaper scrypt cost than a password's is enough. */
const PIN_LOG_N = 14;
const PIN = /^\d{4,8}$/;
/** Wrong PINs a supervisor may be tried with before the PIN is locked for LOCK_MS. */
const MAX_FAILURES = 5;
const LOCK_MS = 15 * 60 * 1000;
/**
 * The wrong tries per supervisor name, in the database: every server instance and a restart see the same count,
 * so a PIN of four digits cannot be guessed by spreading the tries over instances or waiting for a deploy.
 */
export const PIN_LOCK_TABLE = 'pos_supervisor_pin_lock';

/** The supervisors' PINs (scrypt hashes), one per user, beside the schemas' tables like the credentials. */
export async function ensurePinTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable(PIN_TABLE).ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('user_account.id').onDelete('cascade'))
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.kysely.schema.createTable(PIN_LOCK_TABLE).ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('since', 'text', (c) => c.notNull())
    .execute();
}

const keyOf = (name: string) => name.trim().toLowerCase();

/** Whether the name has had MAX_FAILURES wrong tries within LOCK_MS. */
async function isLocked(k: Kysely<any>, name: string): Promise<boolean> {
  const row = await k.selectFrom(PIN_LOCK_TABLE).select(['failures', 'since']).where('name', '=', keyOf(name)).executeTakeFirst();
  return !!row && Number(row.failures) >= MAX_FAILURES && Date.now() - Date.parse(String(row.since)) < LOCK_MS;
}

/** One more wrong try, counted in one statement (two instances refusing at once both count); a window past LOCK_MS starts again. */
async function countFailure(k: Kysely<any>, name: string): Promise<void> {
  const now = new Date();
  const cutoff = new Date(now.getTime() - LOCK_MS).toISOString();
  const t = sql.table(PIN_LOCK_TABLE);
  await k.insertInto(PIN_LOCK_TABLE).values({ name: keyOf(name), failures: 1, since: now.toISOString() })
    .onConflict((oc) => oc.column('name').doUpdateSet({
      // ISO timestamps of one format order as text
      failures: sql`case when ${t}.since > ${cutoff} then ${t}.failures + 1 else 1 end`,
      since: sql`case when ${t}.since > ${cutoff} then ${t}.since else ${now.toISOString()} end`,
    })).execute();
}

const clearFailures = (k: Kysely<any>, name: string) => k.deleteFrom(PIN_LOCK_TABLE).where('name', '=', keyOf(name)).execute();
const refused = (message: string) => new AppError('FORBIDDEN', message, undefined, { reason: 'supervisor_pin' });

/** The permission key a sale's refund (its cancel action) needs besides edit: returns, voids and reprints need it too. */
export function refundKeyOf(e: EntitySchema): string | null {
  const cancel = e.document?.cancelAction ?? 'cancel';
  return e.workflow?.transitions.find((t) => t.action === cancel)?.permission ?? null;
}

/**
 * The caller's context with the supervisor's authority for `key` (edit), when the request names a supervisor
 * (`x-supervisor`: a username) and their PIN (`x-supervisor-pin`), the supervisor is an active user whose role
 * has edit on `key` and on the sale entity, and the PIN is theirs. A caller who already has the right is
 * answered as is. Every approval and every refusal is written to the system log. 403 `supervisor_pin` when the
 * PIN does not fit (after 5 wrong PINs a supervisor's PIN is locked for 15 minutes).
 */
export async function withSupervisor(service: EntityService, request: FastifyRequest, ctx: RequestContext, e: EntitySchema, key: string, what: string, recordId: number): Promise<RequestContext> {
  if (service.policy.can(ctx, key, 'edit')) return ctx;
  const name = request.headers['x-supervisor'];
  const pin = request.headers['x-supervisor-pin'];
  if (typeof name !== 'string' || typeof pin !== 'string' || !name.trim()) return ctx; // the route answers its own 403
  const me = principalOf(ctx);
  if (!me) return ctx;
  const k: Kysely<any> = service.db.kysely;
  const log = (message: string) => writeAudit(k, { action: 'access_denied', userId: ctx.userId, username: me.user.username, ip: ctx.ip, entity: e.name, recordId, message });
  if (await isLocked(k, name)) {
    await log(`supervisor PIN locked: ${name} (${what})`);
    throw refused('Too many wrong PINs for this supervisor: try again in 15 minutes');
  }
  const sup = await k.selectFrom(`${service.registry.held('userAccounts')} as u`).innerJoin(`${PIN_TABLE} as p`, 'p.user_id', 'u.id')
    .select(['u.id', 'u.username', 'u.role_id', 'u.is_active', 'u.is_deleted', 'p.pin_hash'])
    .where('u.username', '=', name.trim()).executeTakeFirst();
  const role = sup ? await loadRole(k, authEntities(service.registry), Number(sup.role_id)) : null;
  const ok = !!sup && !!role && Number(sup.is_active) === 1 && Number(sup.is_deleted ?? 0) !== 1 && sup.id !== ctx.userId
    && PIN.test(pin) && await verifyPassword(pin, String(sup.pin_hash));
  const supCtx: RequestContext | null = ok ? { userId: Number(sup!.id), ip: ctx.ip, principal: { ...me, user: { ...me.user, id: Number(sup!.id), username: String(sup!.username) }, role } as Principal } : null;
  if (!ok || !supCtx || !service.policy.can(supCtx, key, 'edit') || !service.policy.can(supCtx, e.name, 'edit')) {
    // only a name that has a PIN is counted: nothing could unlock an unknown one, and counting them would let anyone fill the table
    if (sup) await countFailure(k, name);
    await log(`supervisor PIN refused: ${name} (${what})`);
    throw refused('The supervisor\'s name or PIN is wrong, or the supervisor may not approve this');
  }
  await clearFailures(k, name);
  await writeAudit(k, { action: 'supervisor_approval', userId: ctx.userId, username: me.user.username, ip: ctx.ip, entity: e.name, recordId, message: `approved by ${String(sup!.username)}: ${what}` });
  // this request only: the caller's own principal with the key's edit added (the caller's scopes are kept)
  const role2 = { ...me.role, role_detail: { ...me.role.role_detail, [key]: { ...(me.role.role_detail[key] ?? {}), view: true, edit: true } } };
  return { ...ctx, principal: { ...me, role: role2 } as Principal };
}

/**
 * PUT /api/pos/supervisor-pin `{ pin, password }`: the caller sets their own supervisor PIN (4 to 8 digits),
 * confirming it with their password. Whether the PIN approves anything is the role's (edit on the refund key).
 */
export function registerPinRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  app.put('/api/pos/supervisor-pin', async (request) => {
    const ctx = contextOf(request);
    const b = (request.body ?? {}) as Row;
    if (typeof b !== 'object' || Array.isArray(b)) throw new AppError('BAD_REQUEST', 'Send { pin, password }');
    const errors = [];
    for (const key of Object.keys(b)) if (key !== 'pin' && key !== 'password') errors.push({ field: key, code: 'unknown_field', message: 'is not a field here' });
    if (typeof b.pin !== 'string' || !PIN.test(b.pin)) errors.push({ field: 'pin', code: 'pin_format', message: 'must be 4 to 8 digits' });
    if (typeof b.password !== 'string' || !b.password) errors.push({ field: 'password', code: 'required', message: 'is required' });
    if (errors.length) throw new AppError(errors.some((x) => x.code === 'unknown_field') ? 'UNKNOWN_FIELD' : 'VALIDATION_FAILED', errors.map((x) => `${x.field}: ${x.message}`).join('; '), { fields: errors });
    const k: Kysely<any> = service.db.kysely;
    const cred = ctx.userId === null ? undefined : await k.selectFrom('user_credential').select('password_hash').where('user_id', '=', ctx.userId).executeTakeFirst();
    if (!cred || !(await verifyPassword(String(b.password), String(cred.password_hash)))) {
      throw new AppError('VALIDATION_FAILED', 'password: is not correct', { fields: [{ field: 'password', code: 'password', message: 'is not correct' }] });
    }
    const row = { user_id: ctx.userId, pin_hash: await hashPassword(String(b.pin), PIN_LOG_N), updated_at: new Date().toISOString() };
    await k.insertInto(PIN_TABLE).values(row).onConflict((oc) => oc.column('user_id').doUpdateSet({ pin_hash: row.pin_hash, updated_at: row.updated_at })).execute();
    await clearFailures(k, String(principalOf(ctx)?.user.username ?? ''));
    return { success: true, data: { pin_set: true } };
  });
}

/**
 * The supervisor's approval where a sale is given back or printed again (issue 51 §2), judged on the server:
 * - the refund of a whole sale (its cancel action, a void) through the generic action route: a hook gives the
 *   request the supervisor's authority before the action's own permission check runs;
 * - POST /api/{sale}/{id}/reprint: a copy of the slip; it needs the print flag and the refund key's edit (the
 *   supervisor's), is counted with the PDF slip's prints (slip-prints.ts) and logged. The register prints the copy only when it answers 200.
 * Returns of part of a sale call withSupervisor in their own route (sale-return.ts).
 */
export function registerSupervisedRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  registerPinRoutes(app, service, contextOf);
  for (const e of service.registry.all() as EntitySchema[]) {
    const key = e.document?.sale ? refundKeyOf(e) : null;
    if (!key) continue;
    const name = e.name;
    const cancel = e.document!.cancelAction ?? 'cancel';
    const actionUrl = `/api/${name}/:id/actions/:action`;
    app.addHook('preHandler', async (request) => {
      if (request.method !== 'POST' || request.routeOptions.url !== actionUrl || !request.ctx) return;
      const params = request.params as { id: string; action: string };
      const id = parseRecordId(params.id);
      if (params.action !== cancel || id === null) return;
      const e2 = service.entity(name);
      const ctx = await withSupervisor(service, request, request.ctx, e2, key, 'void (refund of the whole sale)', id);
      // a role that may edit the sale but lacks the key, asking without a PIN: say that a supervisor may approve it
      // (the screens ask for the PIN on this reason), when the sale can be voided at all (else the action answers)
      if (!service.policy.can(ctx, key, 'edit') && service.policy.can(ctx, name, 'edit')) {
        const w = e2.workflow!;
        const sale = await service.get(name, id, ctx).catch(() => null);
        if (sale && w.transitions.some((t) => t.action === cancel && t.from.includes(String(sale[w.field])))) {
          throw new AppError('FORBIDDEN', 'Voiding a sale needs a supervisor\'s approval (x-supervisor, x-supervisor-pin)', undefined, { reason: 'supervisor_needed' });
        }
      }
      request.ctx = ctx;
    });
    app.post(`/api/${name}/:id/reprint`, async (request) => {
      const id = parseRecordId((request.params as { id: string }).id);
      if (id === null) throw new AppError('NOT_FOUND', `${e.label.en} does not exist`);
      const ctx = await withSupervisor(service, request, contextOf(request), service.entity(name), key, 'reprint of the slip', id);
      service.policy.assertAllowed(ctx, service.entity(name), 'print');
      const sale = await service.get(name, id, ctx);
      if (!service.policy.can(ctx, key, 'edit')) throw copyNeedsSupervisor();
      // the register printed the original itself (in the browser): a sale without a slip count has printed one
      const copies = (await countSlipPrint(service.db, name, id, { uncounted: 1, mayCopy: true })) - 1;
      const me = principalOf(ctx);
      await writeAudit(service.db.kysely, { action: 'reprint', userId: ctx.userId, username: me?.user.username ?? null, ip: ctx.ip, entity: name, recordId: id, message: `copy ${copies} of ${String(sale.doc_no ?? id)}` });
      return { success: true, data: { id, doc_no: sale.doc_no ?? null, copies } };
    });
  }
}
