import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors/app-error.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { Authenticator } from './authenticator.ts';
import { principalOf } from './principal.ts';

/** Paths that answer without a token; everything else under /api and /public needs one. */
const PUBLIC = [/^\/api\/(health|ready)$/, /^\/api\/auth\/signin(\/customer\/[^/]+)?$/, /^\/api\/docs(\/|$)/, /^\/public\/language$/, /^\/public\/menu\/customer$/];
const PROTECTED = /^\/(api|public)(\/|$)/;
/** For unmatched URLs: decoded, so "/%61pi/x" is judged as "/api/x" and answers 401 like any other API path. */
function decodedPath(url: string): string {
  const raw = url.split('?')[0]!;
  try { return decodeURIComponent(raw); } catch { return raw; }
}

/** Every request under /api and /public carries a valid token (but the public paths); refused access is audited. */
export function installRequestGuard(app: FastifyInstance, auth: Authenticator, k: Kysely<any>): void {
  // callback hooks, not async ones: a request whose session is cached passes without a promise
  app.addHook('onRequest', (request, _reply, done) => {
    // the matched route, not the raw URL: "/%61pi/..." is decoded by the router, and must be guarded like "/api/..."
    const path = request.routeOptions.url ?? decodedPath(request.url);
    if (!PROTECTED.test(path) || PUBLIC.some((re) => re.test(path))) { done(); return; }
    let token: string | null;
    try { token = Authenticator.bearer(request); } catch (err) { done(err as Error); return; }
    if (!token) { done(new AppError('UNAUTHORIZED', 'Sign in to continue: send Authorization: Bearer <id_token>')); return; }
    const cached = auth.cachedPrincipal(token);
    if (cached) {
      request.ctx = { userId: cached.user.id, ip: request.ip, principal: cached };
      done();
      return;
    }
    auth.principalFor(token).then((principal) => {
      request.ctx = { userId: principal.user.id, ip: request.ip, principal };
      done();
    }, (err: Error) => done(err));
  });
  // refused access is audited; failed sign-ins are audited by the sign-in route itself
  app.addHook('onResponse', (request, reply, done) => {
    if ((reply.statusCode !== 401 && reply.statusCode !== 403) || request.url.startsWith('/api/auth/signin')) { done(); return; }
    const p = request.ctx ? principalOf(request.ctx) : null;
    writeAudit(k, {
      action: 'access_denied', userId: p?.user.id ?? null, username: p?.user.username ?? null, ip: request.ip,
      entity: request.url.split('?')[0]!.split('/')[2] ?? null, message: `${request.method} ${request.url.slice(0, 300)} answered ${reply.statusCode}`,
    }).catch((err) => request.log.error({ err }, 'audit write failed')).finally(() => done());
  });
}
