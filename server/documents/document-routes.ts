import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { createFrom, openLines, type CreateFromBody } from './create-from.ts';
import { amendDocument } from './amend.ts';
import { spreadAmount } from './receipt-amount-spread.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';

/** `POST /api/{target}/from/{source}` for every document declared to be made from another. */
export function registerDocumentRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all()) {
    if (!entity.document || !entity.fields.amended_from) continue;
    /** Cancel and amend: a new draft copied from a cancelled document, linked to it. */
    app.post<{ Params: { id: string } }>(`/api/${entity.name}/:id/amend`, async (request, reply) => {
      const id = parseRecordId(request.params.id);
      if (id === null) throw new AppError('NOT_FOUND', `${entity.label.en} "${request.params.id}" does not exist`);
      return reply.status(201).send({ success: true, data: await amendDocument(service, entity.name, id, contextOf(request)) });
    });
  }
  for (const target of service.registry.all()) {
    for (const spec of target.document?.from ?? []) {
      app.post(`/api/${target.name}/from/${spec.source}`, async (request, reply) => {
        const ctx = contextOf(request);
        // one amount received, spread over the open lines (receipt-amount-spread.ts), arrives here as lines
        const body = await spreadAmount(service, target, spec, request.body as CreateFromBody | null, ctx);
        const data = await createFrom(service, target.name, spec.source, body, ctx);
        return reply.status(201).send({ success: true, data });
      });
      /** What is still open on the chosen source documents' lines, for the create-from screen. */
      app.get(`/api/${target.name}/from/${spec.source}`, async (request) => {
        const q = request.query as Record<string, unknown>;
        const unknown = Object.keys(q).filter((k) => k !== 'ids');
        if (unknown.length) throw new AppError('INVALID_QUERY', `Unknown query parameter "${unknown[0]}"; use ids`);
        return { success: true, data: await openLines(service, target.name, spec.source, q.ids, contextOf(request)) };
      });
    }
  }
}
