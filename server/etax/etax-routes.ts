import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';
import { companyEntityOf } from '../../engine/schema/schema-types.ts';
import { parseId, printOptionsOf } from '../print/print-routes.ts';
import { countPrint } from '../print/print-counter.ts';
import { principalOf } from '../auth/principal.ts';
import { EtaxMaker } from './etax-maker.ts';
import type { EtaxSettings } from './etax-settings.ts';
import { registerEtaxEmailRoute } from './etax-email-route.ts';
import type { MailSettings } from '../mail/mailer.ts';

export interface EtaxRouteOptions {
  db: Database;
  settings: EtaxSettings;
  mail?: MailSettings;
}

const flagOf = (q: Record<string, unknown>, name: string) => {
  const v = q[name];
  if (v !== undefined && v !== '0' && v !== '1') throw new AppError('INVALID_QUERY', `${name} must be 0 or 1`);
  return v === '1';
};

/**
 * GET /api/{document}/{id}/etax.xml and etax.pdf for every document (ETAX_NOT_SUPPORTED for those whose
 * schema declares no `document.etax`), with the print flag; ?cancellation=1 gives the cancellation note
 * of a cancelled document. GET /api/etax/status tells an administrator what is configured.
 * Rejects when ETAX_P12_PATH names a file ETAX_P12_PASSWORD does not open.
 */
export async function registerEtaxRoutes(app: FastifyInstance, service: EntityService, policy: PermissionPolicy, contextOf: ContextOf, options: EtaxRouteOptions): Promise<void> {
  const maker = new EtaxMaker(service, policy, options.settings);
  // a certificate that cannot be opened stops the server at start with the reason, like a half SMTP setting,
  // rather than failing every e-Tax request later
  await maker.signingKey();
  for (const entity of service.registry.all().filter((e) => e.kind === 'document')) {
    app.get(`/api/${entity.name}/:id/etax.xml`, async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const f = await maker.files(entity, parseId((request.params as { id: string }).id), contextOf(request), 'print', flagOf(q, 'cancellation'));
      reply.header('content-type', 'application/xml; charset=utf-8');
      reply.header('content-disposition', `attachment; filename="${f.xmlFileName}"`);
      reply.header('x-etax-signed', f.signed ? '1' : '0');
      if (f.warnings.length) reply.header('x-etax-warnings', f.warnings.map((w) => w.rule).join(','));
      reply.header('cache-control', 'no-store');
      return reply.send(f.xml);
    });
    app.get(`/api/${entity.name}/:id/etax.pdf`, async (request, reply) => {
      const q = request.query as Record<string, unknown>;
      const o = printOptionsOf({ lang: q.lang });
      const ctx = contextOf(request);
      const id = parseId((request.params as { id: string }).id);
      const f = await maker.files(entity, id, ctx, 'print', flagOf(q, 'cancellation'));
      const pdf = await maker.pdf(f, o.lang);
      // a PDF of the document is a print of it, counted like GET …/pdf
      const limit = entity.print?.limitByRole ? principalOf(ctx)?.role.production_report_print_times ?? null : null;
      await countPrint(options.db, entity.name, id, limit);
      reply.header('content-type', 'application/pdf');
      reply.header('content-disposition', `attachment; filename="${f.xmlFileName.replace(/\.xml$/, '')}-etax.pdf"`);
      reply.header('x-etax-signed', f.signed ? '1' : '0');
      if (f.warnings.length) reply.header('x-etax-warnings', f.warnings.map((w) => w.rule).join(','));
      reply.header('cache-control', 'no-store');
      return reply.send(pdf);
    });
  }
  registerEtaxEmailRoute(app, service, contextOf, maker, { db: options.db.kysely, mail: options.mail });

  // who may see the issuing companies may see whether they can sign; never the certificate or its key
  app.get('/api/etax/status', async (request) => {
    const company = companyEntityOf(service.registry.all());
    if (!company) throw new AppError('NOT_FOUND', 'No company entity (access.companyField "id") in the schemas');
    policy.assertAllowed(contextOf(request), company, 'read');
    const key = maker.signingKey();
    // the key was read at start (above), so a configured certificate is a readable one
    const k = key ? await key : null;
    const certificate = k ? { configured: true, subject: k.subject, not_after: k.notAfter.toISOString() } : { configured: false };
    return { success: true, data: { certificate, rd_email: options.settings.rdEmail, email: Boolean(options.mail) } };
  });
}
