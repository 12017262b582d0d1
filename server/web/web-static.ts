import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

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
 * /socket.io keep the JSON 404.
 */
export async function registerWebStatic(app: FastifyInstance, distDir: string): Promise<void> {
  const root = resolve(distDir);
  await app.register(fastifyStatic, { root, serve: false });

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
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    }
    if (path.startsWith('/assets/') || !acceptsHtml(request)) return reply.callNotFound();
    if (!existsSync(join(root, 'index.html'))) return reply.callNotFound();
    return reply.header('cache-control', 'no-cache').sendFile('index.html', root, { cacheControl: false } as never);
  };
  app.get('/', handler);
  app.get('/*', handler);
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/** True when web/dist/index.html is missing or older than any file of web/src, web/index.html or the Vite config. */
export function webBuildIsStale(root: string): boolean {
  const web = join(root, 'web');
  const built = join(web, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const builtAt = statSync(built).mtimeMs;
  const sources = Math.max(newestMtime(join(web, 'src')), newestMtime(join(web, 'index.html')), newestMtime(join(web, 'vite.config.ts')), newestMtime(join(web, 'public')));
  return sources > builtAt;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the web app with Vite when the build is missing or stale; returns web/dist.
 * A lock directory keeps two processes (parallel test files) from building at once.
 */
export async function ensureWebBuilt(root: string, log: (msg: string) => void = () => undefined): Promise<string> {
  const dist = join(root, 'web', 'dist');
  if (!webBuildIsStale(root)) return dist;
  const lock = join(tmpdir(), `bo-web-build-${createHash('sha1').update(resolve(root)).digest('hex').slice(0, 12)}.lock`);
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // someone else is building; a lock older than 3 minutes is left over from a crash
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 180_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 240_000) throw new Error('timed out waiting for another web build');
      await sleep(250);
    }
  }
  try {
    if (!webBuildIsStale(root)) return dist;
    log('building the web app (vite build)…');
    const t0 = Date.now();
    const { build } = await import('vite');
    // a test runner sets NODE_ENV=test, which would give React's development build
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ configFile: join(root, 'web', 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
    } finally {
      if (nodeEnv === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = nodeEnv;
    }
    log(`web app built in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    return dist;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
