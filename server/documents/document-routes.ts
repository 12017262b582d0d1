import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { createFrom, type CreateFromBody } from './create-from.ts';

/** `POST /api/{target}/from/{source}` for every document declared to be made from another. */
export function registerDocumentRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const target of service.registry.all()) {
    for (const spec of target.document?.from ?? []) {
      app.post(`/api/${target.name}/from/${spec.source}`, async (request, reply) => {
        const data = await createFrom(service, target.name, spec.source, request.body as CreateFromBody | null, contextOf(request));
        return reply.status(201).send({ success: true, data });
      });
    }
  }
}
