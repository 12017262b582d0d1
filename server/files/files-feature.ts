import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import { ensureFileTable } from './file-store.ts';
import { registerFileRoutes, type FileRouteOptions } from './file-routes.ts';

/** Uploads: their table and routes. */
export const filesFeature: Feature<FeatureBase & { uploads: FileRouteOptions }> = {
  name: 'files',
  tables: [ensureFileTable],
  routes: (c) => registerFileRoutes(c.app, c.service.db, c.service, c.contextOf, c.uploads),
};
