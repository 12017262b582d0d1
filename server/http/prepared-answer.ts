import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Prepared { json: Buffer; tag: string; br?: Buffer; gzip?: Buffer }

/** The encodings the request accepts (a `q=0` refuses one). */
function accepted(request: FastifyRequest): Set<string> {
  const out = new Set<string>();
  for (const part of String(request.headers['accept-encoding'] ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name && !params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) out.add(name);
  }
  return out;
}

/**
 * A large JSON answer that changes only when the schemas or their overrides do (the language content, about
 * 190 KB): serialised, hashed and compressed once per version instead of on every request. Every signed-in page
 * opened cold waits for it before it shows a screen, and building, hashing and compressing it cost about 14 ms of
 * server on every page load, while the screen's own answers waited behind it (docs/performance.md, Browser). Same headers as `etagOnSend` (server/http/etag.ts): a validator, no-cache, 304.
 */
export class PreparedAnswer {
  private cached: Prepared | null = null;

  constructor(private readonly build: () => unknown) {}

  /** The content changed (a new schema version): the next request builds it again. */
  invalidate(): void {
    this.cached = null;
  }

  send(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const c = (this.cached ??= this.prepare());
    reply.header('etag', c.tag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding');
    const asked = request.headers['if-none-match'];
    if (asked && asked.split(',').map((s) => s.trim()).includes(c.tag)) return reply.code(304).send('');
    reply.type('application/json; charset=utf-8');
    const ok = accepted(request);
    if (ok.has('br')) {
      c.br ??= brotliCompressSync(c.json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6, [zlib.BROTLI_PARAM_SIZE_HINT]: c.json.length } });
      return reply.header('content-encoding', 'br').send(c.br);
    }
    if (ok.has('gzip')) {
      c.gzip ??= gzipSync(c.json, { level: 6 });
      return reply.header('content-encoding', 'gzip').send(c.gzip);
    }
    return reply.send(c.json);
  }

  private prepare(): Prepared {
    const json = Buffer.from(JSON.stringify(this.build()));
    return { json, tag: `W/"${createHash('sha1').update(json).digest('base64url')}"` };
  }
}
