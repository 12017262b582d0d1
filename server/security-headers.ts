import Fastify, { type FastifyInstance } from 'fastify';
import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';

/**
 * Security headers on every answer, HTML and API alike, from the ecosystem's
 * plugin. The CSP fits the built app: scripts only from our origin (the build
 * has no inline script; 'unsafe-eval' because the forms validate with the
 * same ajv as the server, and ajv compiles each schema to a function), styles also inline because PrimeReact positions
 * overlays with style elements, images and fonts from data: and blob: URLs
 * (avatars, previews, icon fonts), PDFs shown in frames from blob: URLs.
 */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  global: true,
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'unsafe-eval'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  referrerPolicy: { policy: 'same-origin' },
  crossOriginOpenerPolicy: { policy: 'same-origin' },
  // the app is served over plain HTTP on a LAN too; HSTS belongs to the TLS-terminating proxy
  strictTransportSecurity: false,
};

/**
 * The headers the plugin sets with these options, asked of it once. The plugin
 * builds a new helmet middleware (parsing every CSP directive again) on every
 * request: about 3 % of a request's CPU under load. Nothing here varies per
 * request (no nonces, no per-route options), so the same headers are set from
 * this list instead.
 */
export async function helmetHeaders(options: FastifyHelmetOptions = HELMET_OPTIONS): Promise<[string, string][]> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, options);
  let seen: [string, string][] = [];
  probe.addHook('onRequest', async (_request, reply) => {
    seen = Object.entries(reply.raw.getHeaders()).map(([k, v]) => [k, String(v)]);
  });
  probe.get('/', async () => '');
  await probe.inject({ method: 'GET', url: '/' });
  await probe.close();
  if (!seen.some(([k]) => k === 'content-security-policy')) throw new Error('@fastify/helmet set no Content-Security-Policy');
  return seen;
}

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  const headers = await helmetHeaders();
  // on the raw response, first thing, as the plugin does: every answer (errors, 404s, static files) carries them
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headers) reply.raw.setHeader(name, value);
    done();
  });
}
