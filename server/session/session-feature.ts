import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { ReportCatalogue } from '../reports/report-catalogue.ts';
import { registerSessionRoutes } from './session-routes.ts';

export interface SessionContext extends FeatureBase {
  policy: PermissionPolicy;
  reports: ReportCatalogue;
}

/** The signed-in user's start-up calls: role, user type, settings, the menu. */
export const sessionFeature: Feature<SessionContext> = {
  name: 'session',
  routes: (c) => registerSessionRoutes(c.app, c.service.db.kysely, c.service.registry, c.policy, c.reports),
};
