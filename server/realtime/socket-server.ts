import { Server as SocketServer } from 'socket.io';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';

export interface Realtime {
  io: SocketServer;
  /** Sends an event to every socket of one user, on every server instance when Redis is configured. */
  toUser(userId: number, event: string, payload: unknown): void;
  close(): Promise<void>;
}

/** Sent to every socket of an instance that is shutting down; the client reconnects on its own. */
export const SERVER_RESTARTING = 'server-restarting';

export const userRoom = (userId: number) => `user:${userId}`;

/**
 * socket.io on the Fastify server. The handshake must carry a valid token
 * (auth.token); each socket joins only its own user's room.
 */
export async function attachRealtime(app: FastifyInstance, auth: Authenticator, redisUrl?: string, redisKey = 'backoffice'): Promise<Realtime> {
  // websocket only: a socket's whole life is one TCP connection to one instance, so a round-robin
  // load balancer needs no sticky sessions (docs/operations.md); long-polling would need them
  const io = new SocketServer(app.server, { serveClient: false, cors: { origin: false }, transports: ['websocket'] });
  const clients: { quit(): Promise<unknown> }[] = [];
  if (redisUrl) {
    // loaded only when configured (importing redis takes over a second)
    const [{ createAdapter }, { createClient }] = await Promise.all([import('@socket.io/redis-adapter'), import('redis')]);
    const pub = createClient({ url: redisUrl });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    clients.push(pub, sub);
    // a deployment's own channel, so two deployments sharing one Redis never hear each other's events
    io.adapter(createAdapter(pub, sub, { key: redisKey }));
  }
  io.use((socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') return next(new Error('UNAUTHORIZED: sign in first'));
    auth.principalFor(token).then((p) => {
      socket.data.userId = p.user.id;
      void socket.join(userRoom(p.user.id));
      next();
    }, () => next(new Error('UNAUTHORIZED: the token is not valid')));
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
    async close() {
      closeSockets();
      for (const c of clients.splice(0)) await c.quit().catch(() => undefined);
    },
  };
}
