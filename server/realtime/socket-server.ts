import { Server as SocketServer } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';
import { installSocketDiagnostics } from './socket-diagnostics.ts';

export interface Realtime {
  io: SocketServer;
  /** Sends an event to every socket of one user, on every server instance when Redis is configured. */
  toUser(userId: number, event: string, payload: unknown): void;
  close(): Promise<void>;
}

export const userRoom = (userId: number) => `user:${userId}`;

/**
 * socket.io on the Fastify server. The handshake must carry a valid token
 * (auth.token); each socket joins only its own user's room.
 */
export async function attachRealtime(app: FastifyInstance, auth: Authenticator, redisUrl?: string, redisKey = 'backoffice'): Promise<Realtime> {
  const io = new SocketServer(app.server, { serveClient: false, cors: { origin: false } });
  const clients: { quit(): Promise<unknown> }[] = [];
  if (redisUrl) {
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
  installSocketDiagnostics(io);
  return {
    io,
    toUser: (userId, event, payload) => { io.to(userRoom(userId)).emit(event, payload); },
    async close() {
      // io.close() would also close the HTTP server, which Fastify closes itself
      io.local.disconnectSockets(true);
      io.engine.close();
      for (const c of clients) await c.quit().catch(() => undefined);
    },
  };
}
