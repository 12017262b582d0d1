import type { FastifyInstance } from 'fastify';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { attachRealtime, SCHEMA_CHANGED, type Realtime } from './socket-server.ts';
import { installAlertNotifier } from './alert-notifier.ts';
import { installSettingsNotifier } from './settings-notifier.ts';

const AUTH_INVALIDATED = 'auth-invalidated';
const AUTH_ACK_MS = 2000;

export interface RealtimeOptions {
  redisUrl?: string;
  redisKey?: string;
  allowedOrigins?: string[];
  alertPollMs?: number;
}

/**
 * The sockets, attached last (after the web app's routes): session invalidations shared between
 * instances, the settings and alert notifiers (the last listeners on the entity service), and
 * schema changes told to every open screen. `linked` is where readiness asks about the link.
 */
export async function linkRealtime(app: FastifyInstance, service: EntityService, auth: Authenticator, registry: SchemaRegistry, opts: RealtimeOptions, links: { realtime: () => boolean }): Promise<Realtime> {
  const realtime = await attachRealtime(app, auth, opts.redisUrl, opts.redisKey, opts.allowedOrigins ?? []);
  if (opts.redisUrl) {
    // a sign-out, password or role change on one instance ends the session on all of them at once
    // the sender waits for every peer's acknowledgement (bounded), so its answer comes after they dropped their caches
    realtime.io.on(AUTH_INVALIDATED, (ack?: () => void) => { void auth.invalidate(true); ack?.(); });
    // while Redis is down no peer hears an invalidation: every instance then reads each session from the
    // database on every request (no cached principal), so a revoked token is refused everywhere; what was
    // cached before the outage, or while another instance's broadcast was missed, is dropped when the link is back
    auth.cacheAllowed = () => realtime.linked();
    links.realtime = () => realtime.linked();
    realtime.onLinkChange(() => { void auth.invalidate(true); });
    auth.broadcast = async () => {
      if (!realtime.linked()) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), AUTH_ACK_MS); });
      try {
        const outcome = await Promise.race([realtime.io.serverSideEmitWithAck(AUTH_INVALIDATED), late]);
        if (outcome === 'late') app.log.warn('a server instance did not acknowledge a session invalidation in time');
      } catch (err) {
        app.log.warn({ err: { message: (err as Error).message } }, 'a server instance did not acknowledge a session invalidation');
      } finally {
        clearTimeout(timer);
      }
    };
  }
  const k = service.db.kysely;
  installSettingsNotifier(service, realtime, k, (err) => app.log.warn({ err: { message: (err as Error).message } }, 'could not read the site settings stamp'));
  const stopAlerts = installAlertNotifier(service, realtime, k, { pollMs: opts.alertPollMs ?? 15_000, onError: (err) => app.log.error({ err }, 'alert notification failed') });
  // a new override version (saved here, or seen by the 500 ms poll when saved elsewhere): every open
  // screen connected to this instance re-renders with it; each instance tells only its own sockets
  const stopSchemaEvents = registry.onChange((change) => { realtime.io.local.emit(SCHEMA_CHANGED, change); });
  // and each socket hears the current version as it connects: a screen that loaded its schema
  // just before a change, but connected just after it, would otherwise miss that change
  realtime.io.on('connection', (socket) => { socket.emit(SCHEMA_CHANGED, { version: registry.version }); });
  app.addHook('onClose', async () => {
    stopSchemaEvents();
    stopAlerts();
    await realtime.close();
  });
  return realtime;
}
