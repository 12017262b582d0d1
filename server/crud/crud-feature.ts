import type { Feature } from './feature-contract.ts';
import { ensureNumberingTable } from './numbering-series.ts';
import { registerEntityRoutes } from './crud-routes.ts';
import { registerExportRoute } from './export-route.ts';
import { registerListAliasRoutes } from './list-alias-routes.ts';

/** Every schema entity's routes: list, read, write, actions, export, and the list aliases; their document numbers. */
export const crudFeature: Feature = {
  name: 'entities',
  tables: [ensureNumberingTable],
  routes: ({ app, service, contextOf }) => {
    for (const entity of service.registry.all()) {
      registerExportRoute(app, service, entity.name, contextOf);
      registerEntityRoutes(app, service, entity.name, contextOf);
      registerListAliasRoutes(app, service, entity.name, contextOf);
    }
  },
};
