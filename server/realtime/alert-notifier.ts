import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { Realtime } from './socket-server.ts';

export const ALERT_EVENT = 'update-alert-number';

/** Unread alerts are those not read and already due; `alerts` is the entity that holds them (`"holds": "alerts"`). */
export async function unreadAlerts(k: Kysely<any>, alerts: string, userId: number): Promise<number> {
  const r = await k.selectFrom(alerts).select((eb) => eb.fn.countAll().as('n'))
    .where('user_id', '=', userId).where('is_read', '=', 0).where('due_at', '<=', new Date().toISOString())
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/**
 * Tells a user's sockets their unread count whenever it may have moved: an
 * alert for them was created, changed, read or deleted (after commit), or one
 * became due (checked every `pollMs`). A write is announced by the instance
 * that made it, to every instance's sockets; every instance polls, so each
 * tells only its own sockets that an alert became due, and a user hears it once.
 */
export function installAlertNotifier(service: EntityService, realtime: Realtime, k: Kysely<any>, opts: { pollMs: number; onError: (err: unknown) => void }): () => void {
  // no schema holds alerts (they arrive with the CRM): nothing to tell
  const alerts = service.registry.holder('alerts')?.name;
  if (!alerts) return () => undefined;
  const push = async (userId: number, send = realtime.toUser) => {
    send(userId, ALERT_EVENT, { notificationNumber: await unreadAlerts(k, alerts, userId) });
  };
  service.afterCommit((e) => {
    const users = new Set([e.before?.user_id, e.after?.user_id].filter((u) => u !== null && u !== undefined).map(Number));
    for (const u of users) push(u).catch(opts.onError);
  }, (entity) => entity.name === alerts);
  let last = new Date().toISOString();
  const timer = setInterval(() => {
    const now = new Date().toISOString();
    const since = last;
    last = now;
    k.selectFrom(alerts).select('user_id').distinct()
      .where('is_read', '=', 0).where('due_at', '>', since).where('due_at', '<=', now)
      .execute()
      .then((rows) => Promise.all(rows.map((r) => push(Number(r.user_id), realtime.toLocalUser))))
      .catch(opts.onError);
  }, opts.pollMs);
  timer.unref();
  return () => clearInterval(timer);
}
