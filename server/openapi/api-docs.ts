import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { buildOpenApi } from './openapi-builder.ts';

/** /api/docs: the OpenAPI document of every entity, rebuilt when the schema version moves, so custom fields and overrides show without a restart. */
export async function registerApiDocs(app: FastifyInstance, registry: SchemaRegistry): Promise<void> {
  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi(registry) as never } });
  let openApi = { version: registry.version, doc: null as unknown };
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    transformSpecificationClone: false,
    transformSpecification: (static_) => {
      if (registry.version === 0) return static_;
      if (openApi.version !== registry.version || !openApi.doc) openApi = { version: registry.version, doc: buildOpenApi(registry) };
      return openApi.doc as typeof static_;
    },
  });
}
