import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/**
 * Security headers on every answer, HTML and API alike, from the ecosystem's
 * plugin. The CSP fits the built app: scripts only from our origin (the build
 * has no inline script; 'unsafe-eval' because the forms validate with the
 * same ajv as the server, and ajv compiles each schema to a function), styles also inline because PrimeReact positions
 * overlays with style elements, images and fonts from data: and blob: URLs
 * (avatars, previews, icon fonts), PDFs shown in frames from blob: URLs.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
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
  });
}
