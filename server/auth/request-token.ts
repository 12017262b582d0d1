import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';

/**
 * The session token a request carries. The spec's blob downloads send it in
 * `Authorization: Bearer …` and in `x-access-token`; either alone is the same
 * token with the same checks (the caller verifies, revokes and audits it the
 * same way). Two different tokens are refused: a request must not be able to
 * choose whose session it acts under depending on which header a proxy keeps.
 */
export function requestToken(request: FastifyRequest): string | null {
  const bearer = bearerOf(request.headers.authorization);
  const access = single(request.headers['x-access-token'])?.trim() || null;
  if (bearer && access && bearer !== access) {
    throw new AppError('BAD_REQUEST', 'Authorization and x-access-token carry different tokens; send one token', undefined, { reason: 'token_mismatch' });
  }
  return bearer ?? access;
}

function bearerOf(h: string | undefined): string | null {
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1]! : null;
}

function single(v: string | string[] | undefined): string | undefined {
  // a repeated header is two tokens: treat it as the mismatch it may be only if they differ
  if (Array.isArray(v)) {
    if (new Set(v).size > 1) throw new AppError('BAD_REQUEST', 'x-access-token is sent more than once with different values', undefined, { reason: 'token_mismatch' });
    return v[0];
  }
  return v;
}
