import { existsSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

// building is a separate step (scripts/build.mjs, scripts/web-build.mjs): the server only serves web/dist

/** Paths that belong to the API; they never fall back to the web app. */
const API_PREFIXES = ['/api/', '/public/', '/socket.io/'];
const API_EXACT = new Set(['/api', '/public', '/socket.io']);

function isApiPath(path: string): boolean {
  return API_EXACT.has(path) || API_PREFIXES.some((p) => path.startsWith(p));
}

function acceptsHtml(request: FastifyRequest): boolean {
  const accept = String(request.headers.accept ?? '');
  return accept === '' || accept.includes('text/html') || accept.includes('*/*');
}

/**
 * Serves the built web app (web/dist) from the same origin as the API.
 * Files are looked up per request, so a rebuild needs no restart. A GET that
 * matches no file and no API route, and accepts HTML, gets index.html (the SPA
 * decides what to show, including its own not-found page); /api, /public and
 * /socket.io keep the JSON 404. Built files are served from their brotli or
 * gzip twin (written at build time) when the browser accepts it.
 */
export async function registerWebStatic(app: FastifyInstance, distDir: string): Promise<void> {
  const root = resolve(distDir);
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true });

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    let path: string;
    try {
      path = decodeURIComponent(request.url.split('?')[0]!);
    } catch {
      return reply.callNotFound();
    }
    if (isApiPath(path)) return reply.callNotFound();
    const file = resolve(root, `.${path}`);
    if (file.startsWith(root + sep) && !path.endsWith('/') && existsSync(file) && statSync(file).isFile()) {
      const immutable = path.startsWith('/assets/');
      return reply.sendFile(path.slice(1), root, { cacheControl: false, headers: {} } as never)
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
        .header('vary', 'accept-encoding');
    }
    if (path.startsWith('/assets/') || !acceptsHtml(request)) return reply.callNotFound();
    if (!existsSync(join(root, 'index.html'))) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').sendFile('index.html', root, { cacheControl: false } as never);
  };
  app.get('/', handler);
  app.get('/*', handler);
}
