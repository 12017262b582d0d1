import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function decode(row: Record<string, unknown>) {
  return { ...row, id: Number(row.id), user_id: row.user_id === null ? null : Number(row.user_id), changes: row.changes ? JSON.parse(String(row.changes)) : null };
}

/** Read-only browsing of the audit log by date; nothing can alter or delete it through the API. */
export function registerSystemLogRoutes(app: FastifyInstance, k: Kysely<any>, policy: PermissionPolicy, contextOf: ContextOf): void {
  const guard = (request: Parameters<ContextOf>[0]) => {
    if (!policy.can(contextOf(request), 'system_log', 'view')) throw new AppError('FORBIDDEN', 'Your role may not view the system log');
  };

  app.get<{ Querystring: { date?: string; page?: string; limit?: string } }>('/api/system_log', async (request) => {
    guard(request);
    const { date, page = '1', limit = '50' } = request.query;
    if (date !== undefined && !DATE.test(date)) throw new AppError('INVALID_QUERY', 'date must be YYYY-MM-DD');
    if (!/^\d{1,6}$/.test(page) || !/^\d{1,3}$/.test(limit) || Number(page) < 1 || Number(limit) < 1 || Number(limit) > 500) {
      throw new AppError('INVALID_QUERY', 'page must be 1 or more and limit between 1 and 500');
    }
    let q = k.selectFrom('system_log').selectAll();
    let c = k.selectFrom('system_log').select((eb) => eb.fn.countAll().as('n'));
    if (date) { q = q.where('log_date', '=', date); c = c.where('log_date', '=', date); }
    const rows = await q.orderBy('id', 'desc').limit(Number(limit)).offset((Number(page) - 1) * Number(limit)).execute();
    const total = await c.executeTakeFirst();
    return { success: true, data: rows.map(decode), meta: { page: Number(page), limit: Number(limit), total_count: Number(total?.n ?? 0) } };
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
  for (const url of ['/api/system_log', '/api/system_log/:id']) {
    app.post(url, refuse);
    app.put(url, refuse);
    app.patch(url, refuse);
    app.delete(url, refuse);
  }
}
