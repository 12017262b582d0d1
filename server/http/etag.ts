import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';

/**
 * A validator for answers that change only when the schemas or their overrides
 * do (an entity's metadata; the language content is prepared once per version
 * with the same headers, prepared-answer.ts): the ETag is a hash of the
 * answer itself, so it is right for every user and every override version
 * without bookkeeping. The browser revalidates (no-cache) and gets 304 with no
 * body while nothing changed.
 */
export const etagOnSend: onSendHookHandler = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
  if (request.method !== 'GET' || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
  const tag = `W/"${createHash('sha1').update(payload).digest('base64url')}"`;
  reply.header('etag', tag);
  reply.header('cache-control', 'private, no-cache');
  const asked = request.headers['if-none-match'];
  if (asked && asked.split(',').map((s) => s.trim()).includes(tag)) {
    reply.code(304);
    return '';
  }
  return payload;
};
