import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { AccessPolicy } from '../crud/access-policy.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { escapeLike } from '../db/dialect-adapter.ts';
import { sql, type SelectQueryBuilder } from 'kysely';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const WRITES = ['create', 'update', 'delete'];

type LogQuery = { date?: string; page?: string; limit?: string; user?: string; action?: string; entity?: string; ip?: string };
const FILTERS = ['user', 'action', 'entity', 'ip'] as const;

/** The entry filters of a day's screen: user (part of the username), action and entity (exact), IP (prefix). */
function filtered<Q extends SelectQueryBuilder<any, any, any>>(q: Q, f: LogQuery): Q {
  for (const key of FILTERS) {
    const v = f[key];
    if (v !== undefined && (typeof v !== 'string' || v.length > 100)) throw new AppError('INVALID_QUERY', `${key} must be text of at most 100 characters`);
  }
  let out = q as SelectQueryBuilder<any, any, any>;
  if (f.date !== undefined) {
    if (!DATE.test(f.date)) throw new AppError('INVALID_QUERY', 'date must be YYYY-MM-DD');
    out = out.where('log_date', '=', f.date);
  }
  if (f.user) out = out.where(sql`lower(username)`, 'like', sql`${`%${escapeLike(f.user.toLowerCase())}%`} escape '\\'`);
  if (f.action) out = out.where('action', '=', f.action);
  if (f.entity) out = out.where('entity', '=', f.entity);
  if (f.ip) out = out.where('ip', 'like', sql`${`${escapeLike(f.ip)}%`} escape '\\'`);
  return out as Q;
}

function paging(page = '1', limit = '50'): { page: number; limit: number } {
  if (!/^\d{1,6}$/.test(page) || !/^\d{1,3}$/.test(limit) || Number(page) < 1 || Number(limit) < 1 || Number(limit) > 500) {
    throw new AppError('INVALID_QUERY', 'page must be 1 or more and limit between 1 and 500');
  }
  return { page: Number(page), limit: Number(limit) };
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  let s = typeof v === 'string' ? v : JSON.stringify(v);
  // a cell starting with = + - @ would be a formula in a spreadsheet
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function decode(row: Record<string, unknown>) {
  return { ...row, id: Number(row.id), user_id: row.user_id === null ? null : Number(row.user_id), changes: row.changes ? JSON.parse(String(row.changes)) : null };
}

/** Read-only browsing of the audit log by date; nothing can alter or delete it through the API. */
export function registerSystemLogRoutes(app: FastifyInstance, k: Kysely<any>, policy: Pick<AccessPolicy, 'can'>, contextOf: ContextOf): void {
  const guard = (request: Parameters<ContextOf>[0]) => {
    if (!policy.can(contextOf(request), 'system_log', 'view')) throw new AppError('FORBIDDEN', 'Your role may not view the system log');
  };

  app.get<{ Querystring: LogQuery }>('/api/system_log', async (request) => {
    guard(request);
    const { page, limit } = paging(request.query.page, request.query.limit);
    const q = filtered(k.selectFrom('system_log').selectAll(), request.query);
    const c = filtered(k.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n')), request.query);
    const rows = await q.orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute();
    const total = await c.executeTakeFirst();
    return { success: true, data: rows.map(decode), meta: { page, limit, total_count: Number(total?.n ?? 0) } };
  });

  /** One row per day, newest first: sign-ins, failed sign-ins, writes, refused accesses and all entries. */
  app.get<{ Querystring: { page?: string; limit?: string } }>('/api/system_log/days', async (request) => {
    guard(request);
    const extra = Object.keys(request.query).filter((q) => q !== 'page' && q !== 'limit');
    if (extra.length) throw new AppError('INVALID_QUERY', `Unknown parameter ${extra[0]}`);
    const { page, limit } = paging(request.query.page, request.query.limit ?? '31');
    const count = (cond: ReturnType<typeof sql>) => sql<number>`sum(case when ${cond} then 1 else 0 end)`;
    const rows = await k.selectFrom('system_log')
      .select((eb) => [
        'log_date',
        eb.fn.countAll().as('total'),
        count(sql`action = 'signin'`).as('signins'),
        count(sql`action = 'signin_failed'`).as('failed_signins'),
        count(sql`action in (${sql.join(WRITES)})`).as('writes'),
        count(sql`action = 'access_denied'`).as('refused'),
      ])
      .groupBy('log_date').orderBy('log_date', 'desc').limit(limit).offset((page - 1) * limit).execute();
    const days = await k.selectFrom('system_log').select(sql<number>`count(distinct log_date)`.as('n')).executeTakeFirst();
    const num = (v: unknown) => Number(v ?? 0);
    return {
      success: true,
      data: rows.map((r) => ({ date: String(r.log_date), total: num(r.total), signins: num(r.signins), failed_signins: num(r.failed_signins), writes: num(r.writes), refused: num(r.refused) })),
      meta: { page, limit, total_count: num(days?.n) },
    };
  });

  /** The entries matching the same filters as CSV (UTF-8 with BOM), with the export flag. */
  app.get<{ Querystring: LogQuery }>('/api/system_log/export', async (request, reply) => {
    guard(request);
    if (!policy.can(contextOf(request), 'system_log', 'export')) throw new AppError('FORBIDDEN', 'Your role may not export the system log');
    const extra = Object.keys(request.query).filter((q) => !['date', ...FILTERS].includes(q));
    if (extra.length) throw new AppError('INVALID_QUERY', `Unknown parameter ${extra[0]}`);
    const rows = await filtered(k.selectFrom('system_log').selectAll(), request.query).orderBy('id', 'desc').limit(200_000).execute();
    const cols = ['id', 'created_at', 'user_id', 'username', 'ip', 'action', 'entity', 'record_id', 'changes', 'message'];
    const lines = [cols.join(','), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(','))];
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="system_log${request.query.date ? `_${request.query.date}` : ''}.csv"`);
    return `\ufeff${lines.join('\r\n')}\r\n`;
  });

  app.get<{ Params: { id: string } }>('/api/system_log/:id', async (request) => {
    guard(request);
    const id = parseRecordId(request.params.id);
    if (id === null) throw new AppError('NOT_FOUND', 'No such log entry');
    const row = await k.selectFrom('system_log').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw new AppError('NOT_FOUND', 'No such log entry');
    return { success: true, data: decode(row) };
  });

  const refuse = async () => { throw new AppError('METHOD_NOT_ALLOWED', 'The system log cannot be changed or deleted'); };
  for (const url of ['/api/system_log', '/api/system_log/:id', '/api/system_log/days', '/api/system_log/export']) {
    app.post(url, refuse);
    app.put(url, refuse);
    app.patch(url, refuse);
    app.delete(url, refuse);
  }
}
