import { Server as SocketServer } from 'socket.io';
import type { FastifyInstance } from 'fastify';
import type { RedisClientType } from 'redis';
import type { Authenticator } from '../auth/authenticator.ts';
import { installSocketDiagnostics } from './socket-diagnostics.ts';
import type { Principal } from '../auth/principal.ts';
import { closeRedis, openRedis } from '../ops/redis-link.ts';

/**
 * The adapter calls these without waiting for their answer (`pubClient.publish(...)` with no catch): a
 * publish refused while Redis is down, or a subscription still queued when the client is stopped, would
 * be an unhandled rejection. The promise handed back is the client's own, with a handler attached, so
 * its result is unchanged. Events published during an outage reach this instance's own sockets only;
 * the others hear the ones after it.
 */
const FIRE_AND_FORGET = new Set(['publish', 'subscribe', 'pSubscribe', 'sSubscribe', 'unsubscribe', 'pUnsubscribe', 'sUnsubscribe']);
function unhandledSafe(client: RedisClientType, log: FastifyInstance['log']): RedisClientType {
  let warned = 0;
  return new Proxy(client, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target) as unknown;
      if (typeof v !== 'function') return v;
      if (typeof prop !== 'string' || !FIRE_AND_FORGET.has(prop)) return (v as (...a: unknown[]) => unknown).bind(target);
      return (...args: unknown[]) => {
        const p = (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        p.catch((err: Error) => {
          // one line a minute at most: an outage would otherwise write one per event
          if (prop === 'publish' && Date.now() - warned > 60_000) { warned = Date.now(); log.warn({ err: { message: err.message } }, 'a realtime event was not sent to the other instances (redis is down)'); }
        });
        return p;
      };
    },
  });
}

export interface Realtime {
  io: SocketServer;
  /** Sends an event to every socket of one user, on every server instance when Redis is configured. */
  toUser(userId: number, event: string, payload: unknown): void;
  /** Sends an event to the sockets of one user connected to this instance only. */
  toLocalUser(userId: number, event: string, payload: unknown): void;
  /** Whether events reach the other instances now: no Redis configured, or both Redis connections up. */
  linked(): boolean;
  /** Called when the Redis link is lost (false) and when it is whole again (true). */
  onLinkChange(listener: (up: boolean) => void): void;
  close(): Promise<void>;
}

/** Sent to every socket of an instance that is shutting down; the client reconnects on its own. */
export const SERVER_RESTARTING = 'server-restarting';
/** Runtime schema overrides moved to a new version: {version, entities}; open screens reload their schemas. */
export const SCHEMA_CHANGED = 'schema-changed';

export const userRoom = (userId: number) => `user:${userId}`;
/** Sent before the server closes a socket whose session ended; the client shows "Session expired". */
export const SESSION_ENDED = 'session-ended';
/** Sent before the server closes a socket whose rights changed; the client connects again and is judged anew. */
export const REAUTHENTICATE = 'reauthenticate';

/** What a socket's rights were judged on: a change of any of it means the socket must authenticate again. */
function rightsFingerprint(p: Principal): string {
  return JSON.stringify([p.user.role_id, p.role.role_detail, p.userType, p.user.inventory_allow, p.user.branch_company, p.user.customer_id]);
}

/**
 * Browsers send Origin on websocket and cross-site requests: only the app's
 * own origin (the Host it was asked on) and configured ones may open a socket.
 * Requests without Origin come from programs, not pages, and are judged by
 * their token alone.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowed: readonly string[]): boolean {
  if (!origin) return true;
  if (allowed.includes(origin)) return true;
  try { return !!host && new URL(origin).host === host; } catch { return false; }
}

/**
 * socket.io on the Fastify server. The handshake must carry a valid token
 * (auth.token); each socket joins only its own user's room.
 */
export async function attachRealtime(app: FastifyInstance, auth: Authenticator, redisUrl?: string, redisKey = 'backoffice', allowedOrigins: readonly string[] = []): Promise<Realtime> {
  // websocket only: a socket's whole life is one TCP connection to one instance, so a round-robin
  // load balancer needs no sticky sessions (docs/operations.md); long-polling would need them
  const io = new SocketServer(app.server, {
    serveClient: false,
    cors: { origin: false },
    transports: ['websocket'],
    allowRequest: (req, callback) => {
      const ok = originAllowed(req.headers.origin, req.headers.host, allowedOrigins);
      callback(ok ? null : 'this origin may not open a socket', ok);
    },
  });
  const clients: RedisClientType[] = [];
  const down = new Set<string>();
  const linkListeners: ((up: boolean) => void)[] = [];
  if (redisUrl) {
    // loaded only when configured (importing redis takes over a second)
    const { createAdapter } = await import('@socket.io/redis-adapter');
    // both reconnect by themselves (server/ops/redis-link.ts); the subscriber subscribes again when it is back
    const link = (role: string) => ({
      role, log: app.log, failFast: role === 'publisher',
      onChange: (up: boolean) => {
        if (up) down.delete(role); else down.add(role);
        for (const l of linkListeners) l(up && down.size === 0);
      },
    });
    const [pub, sub] = await Promise.all([openRedis(redisUrl, link('publisher')), openRedis(redisUrl, link('subscriber'))]);
    for (const [role, c] of [['publisher', pub], ['subscriber', sub]] as const) if (!c.isReady) down.add(role);
    clients.push(pub, sub);
    // a deployment's own channel, so two deployments sharing one Redis never hear each other's events
    io.adapter(createAdapter(unhandledSafe(pub, app.log), unhandledSafe(sub, app.log), { key: redisKey }));
  }
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return next(new Error('UNAUTHORIZED: sign in first'));
    auth.principalFor(token).then((p) => {
      socket.data.userId = p.user.id;
      socket.data.token = token;
      socket.data.rights = rightsFingerprint(p);
      void socket.join(userRoom(p.user.id));
      next();
    }, () => next(new Error('UNAUTHORIZED: the token is not valid')));
  });
  installSocketDiagnostics(io);
  // a sign-out, deactivation or change of rights (here or, through Redis, on another instance) reaches open sockets at once
  let checking: Promise<void> | null = null;
  let again = false;
  const revalidate = async () => {
    for (const socket of io.of('/').sockets.values()) {
      const token = socket.data.token as string | undefined;
      if (!token) continue;
      const p = await auth.principalFor(token).catch(() => null);
      if (!p) {
        socket.emit(SESSION_ENDED, { reason: 'signed_out' });
        socket.disconnect(true);
      } else if (rightsFingerprint(p) !== socket.data.rights) {
        socket.emit(REAUTHENTICATE, { reason: 'rights_changed' });
        socket.disconnect(true);
      }
    }
  };
  auth.onInvalidate(() => {
    if (checking) { again = true; return; }
    checking = (async () => {
      do { again = false; await revalidate(); } while (again);
    })().catch((err) => app.log.error({ err }, 'socket revalidation failed')).finally(() => { checking = null; });
  });
  let socketsClosed = false;
  const closeSockets = () => {
    if (socketsClosed) return;
    socketsClosed = true;
    // the hint first, then the transport closes: clients see "transport close" and reconnect by
    // themselves (to another instance behind the load balancer), unlike after disconnectSockets()
    io.local.emit(SERVER_RESTARTING, { reconnect: true });
    // close(false) sends what is buffered (the hint) before the transport closes
    for (const client of Object.values((io.engine as unknown as { clients: Record<string, unknown> }).clients) as { close(discard?: boolean): void }[]) client.close(false);
    // io.close() would also close the HTTP server, which Fastify closes itself
    io.engine.close();
  };
  // open websockets would keep the HTTP server from closing: end them when shutdown starts;
  // the Redis clients stay until onClose, so requests still in flight can publish their events
  app.addHook('preClose', async () => closeSockets());
  return {
    io,
    toUser: (userId, event, payload) => { io.to(userRoom(userId)).emit(event, payload); },
    toLocalUser: (userId, event, payload) => { io.local.to(userRoom(userId)).emit(event, payload); },
    linked: () => !redisUrl || (down.size === 0 && clients.every((c) => c.isReady)),
    onLinkChange: (listener) => { linkListeners.push(listener); },
    async close() {
      closeSockets();
      for (const c of clients.splice(0)) await closeRedis(c);
    },
  };
}
