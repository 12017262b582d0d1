import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import { notFound } from '../crud/record-values.ts';
import { renderDocumentPdf } from './document-pdf.ts';
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';
import { portalEntity } from '../../engine/schema/screen-loader.ts';
import { parseId, pdfFileName, printOptionsOf, readDocument, type PrintFiles } from './print-routes.ts';

/**
 * GET /api/customerpage/{customerId}/bill/{id}/pdf: the billing note of the
 * portal page /customerpage/{customerId}/bill/{id} as a view-only copy
 * (issue 9 §3 "shows one, with its PDF"; spec §6: the Customer role may not
 * print, email or export). It is read with view rights and the caller's row
 * scope, so a customer reaches only their own notes (another note is 404, as
 * on the portal's other routes); a note of another customer than the path
 * names is 404 too. Every page says "COPY — for viewing only", so it is not a
 * print: the print flag does not apply and the print counter is not touched.
 * Only lang and be are read from the query; anything else (filters) is ignored.
 */
export function registerPortalPdfRoute(app: FastifyInstance, service: EntityService, policy: PermissionPolicy, contextOf: ContextOf, files?: PrintFiles): void {
  // the portal's entity: the one its bills screens name (schemas/screens/screens.json)
  const name = portalEntity(DECLARED_SCREENS);
  if (!name || !service.registry.get(name)) return;
  app.get('/api/customerpage/:customerId/bill/:id/pdf', async (request, reply) => {
    const ctx = contextOf(request);
    const params = request.params as { customerId: string; id: string };
    const customerId = parseId(params.customerId);
    const id = parseId(params.id);
    const q = request.query as Record<string, unknown>;
    const o = { ...printOptionsOf({ lang: q.lang, be: q.be }), copy: true };
    const entity = service.entity(name);
    const doc = await readDocument(service, policy, entity, id, ctx, 'read', files);
    if (Number(doc.row.customer_id) !== customerId) throw notFound(entity, id);
    const pdf = await renderDocumentPdf(doc, o);
    reply.header('content-type', 'application/pdf');
    reply.header('content-disposition', `inline; filename="copy-${pdfFileName(entity, doc.row, id)}"`);
    reply.header('cache-control', 'no-store');
    return reply.send(pdf);
  });
}
