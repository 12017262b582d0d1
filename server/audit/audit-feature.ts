import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { AccessPolicy } from '../crud/access-policy.ts';
import { registerSystemLogRoutes } from './system-log-routes.ts';

/** The system log's reading routes; the audit rows themselves are written by the auth feature's first listener. */
export const auditFeature: Feature<FeatureBase & { policy: Pick<AccessPolicy, 'can'> }> = {
  name: 'audit',
  routes: (c) => registerSystemLogRoutes(c.app, c.service.db.kysely, c.policy, c.contextOf),
};
