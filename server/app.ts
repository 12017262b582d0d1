import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { SchemaRegistry } from '../engine/schema/schema-registry.ts';
import type { Database } from './db/dialect-adapter.ts';
import { EntityService } from './crud/entity-service.ts';
import { registerEntityRoutes, defaultContext, type ContextOf } from './crud/crud-routes.ts';
import { registerMetaRoutes } from './meta/meta-routes.ts';
import { buildOpenApi } from './openapi/openapi-builder.ts';
import { installErrorHandler } from './errors/error-handler.ts';

export interface AppOptions {
  db: Database;
  registry: SchemaRegistry;
  logger?: FastifyServerOptions['logger'];
  /** Largest accepted JSON body in bytes. */
  bodyLimit?: number;
}

export interface BuiltApp {
  app: FastifyInstance;
  service: EntityService;
}

/** Builds the whole HTTP application without listening, so tests drive it with inject(). */
export async function buildApp(opts: AppOptions): Promise<BuiltApp> {
  const app = Fastify({ logger: opts.logger ?? false, bodyLimit: opts.bodyLimit ?? 1024 * 1024, trustProxy: false });
  installErrorHandler(app);
  const service = new EntityService(opts.db, opts.registry);
  const contextOf: ContextOf = defaultContext;

  await app.register(swagger, { mode: 'static', specification: { document: buildOpenApi(opts.registry) as never } });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerMetaRoutes(app, service, contextOf);
  for (const entity of opts.registry.all()) registerEntityRoutes(app, service, entity.name, contextOf);
  return { app, service };
}
