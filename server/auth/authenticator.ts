import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/dialect-adapter.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { loadPrincipal, type Principal } from './principal.ts';
import type { AuthEntities } from './auth-entities.ts';
import { TokenError, type TokenService } from './token-service.ts';
import { requestToken } from './request-token.ts';

const CACHE_MS = 5000;

declare module 'fastify' {
  interface FastifyRequest {
    ctx?: RequestContext;
  }
}

/**
 * Turns a bearer token into a principal. Principals are cached for a few
 * seconds by token id; any change to accounts, roles, user types or
 * credentials clears the cache at once, on every instance when Redis links them
 * (without Redis, other instances see it within 5 s).
 */
export class Authenticator {
  private cache = new Map<string, { principal: Principal; at: number }>();

  constructor(private readonly db: Database, private readonly entities: AuthEntities, readonly tokens: TokenService, private readonly cacheMs = CACHE_MS) {}

  /**
   * Tells the other server instances to drop their cached principals too (set when Redis links
   * them); resolves once every peer has acknowledged, or after a bounded wait.
   */
  broadcast: (() => Promise<void>) | null = null;

  /**
   * Whether a cached principal may be used now. Set when Redis links the instances: while the link is down
   * no invalidation from another instance can arrive, so every request reads its session from the database.
   */
  cacheAllowed: () => boolean = () => true;

  private readonly listeners: (() => void)[] = [];

  /** Called after every invalidation, local or from a peer: open sockets are checked again. */
  onInvalidate(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * Drops every cached principal here and, unless the call came from another
   * instance, everywhere else. Call it after the change committed: listeners
   * re-read accounts and must see the change. A route that answers a sign-out or
   * a password change awaits it, so the next request, whichever instance it
   * reaches, is already refused.
   */
  async invalidate(fromPeer = false): Promise<void> {
    this.cache.clear();
    for (const l of this.listeners) l();
    if (!fromPeer && this.broadcast) await this.broadcast();
  }

  /**
   * The principal of a token whose claims and principal are both still cached, at once (no promise);
   * null when principalFor must verify or read the database. The same rules as principalFor's cache.
   */
  cachedPrincipal(token: string): Principal | null {
    const claims = this.tokens.verifiedBefore(token);
    const hit = claims ? this.cache.get(claims.jti) : undefined;
    return hit && Date.now() - hit.at < this.cacheMs && this.cacheAllowed() ? hit.principal : null;
  }

  async principalFor(token: string): Promise<Principal> {
    const claims = await this.tokens.verify(token).catch((err: unknown) => {
      if (err instanceof TokenError) {
        throw new AppError('UNAUTHORIZED', err.reason === 'expired' ? 'Your session has expired; sign in again' : 'The sign-in token is not valid; sign in again', undefined, { reason: err.reason === 'expired' ? 'expired' : 'ended' });
      }
      throw err;
    });
    const hit = this.cache.get(claims.jti);
    const now = Date.now();
    if (hit && now - hit.at < this.cacheMs && this.cacheAllowed()) return hit.principal;
    const principal = await loadPrincipal(this.db, this.entities, claims);
    if (!principal) {
      this.cache.delete(claims.jti);
      throw new AppError('UNAUTHORIZED', 'This session has ended (signed out, password or role changed, or account deactivated); sign in again', undefined, { reason: 'ended' });
    }
    if (this.cache.size > 10000) this.cache.clear();
    this.cache.set(claims.jti, { principal, at: now });
    return principal;
  }

  /** The token of `Authorization: Bearer` or `x-access-token` (see request-token.ts). */
  static bearer(request: FastifyRequest): string | null {
    return requestToken(request);
  }
}

export function contextOf(request: FastifyRequest): RequestContext {
  // routes behind the auth hook always have ctx; a missing one means the route was wrongly left public
  if (!request.ctx) throw new AppError('UNAUTHORIZED');
  return request.ctx;
}
