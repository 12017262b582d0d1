import type { FastifyInstance } from 'fastify';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Database } from '../db/dialect-adapter.ts';
import type { ContextOf } from './crud-routes.ts';
import type { EntityService } from './entity-service.ts';

/**
 * The one shape every feature folder exports (issue 46 §1), and that
 * server/features.ts lists in order. It lives beside the entity service
 * because every feature stands on it; it names nothing above crud/, so no
 * feature folder has to import another (or the server's root) to describe itself.
 */

/** What every feature is handed; a feature that needs more (the authenticator, the report catalogue) adds it to its own context type, and server/features.ts hands the whole. */
export interface FeatureBase {
  app: FastifyInstance;
  service: EntityService;
  contextOf: ContextOf;
}

/** A table of a feature's own beside the schemas' (or a fill of columns just added), made at start before the app is built. */
export type FeatureTable = (db: Database, registry: SchemaRegistry) => Promise<unknown>;

/**
 * One of a feature's listeners on the entity service's events (onAction, onWrite, afterCommit, onPrepare).
 * They are registered in the order of the feature list, then of the feature's array: that order is the
 * order they run in. Each declares the entities it applies to as the `when` selector of its registration.
 */
export interface FeatureListener<C> {
  name: string;
  install: (service: EntityService, c: C) => void;
}

export interface Feature<C extends FeatureBase = FeatureBase> {
  name: string;
  tables?: FeatureTable[];
  listeners?: FeatureListener<C>[];
  /** The feature's HTTP routes (and app hooks of its own), registered after its listeners. */
  routes?: (c: C) => void | Promise<void>;
}
