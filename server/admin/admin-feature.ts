import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { registerAdminRoutes, type AdminOptions, type AdminServices } from './admin-routes.ts';

export interface AdminContext extends FeatureBase {
  auth: Authenticator;
  adminOptions: AdminOptions;
  /** Where the feature leaves its services (backups, the write gate, restore) for the built app's answer. */
  provided: { admin?: AdminServices };
}

/** Database management: backups, restore and the write gate. */
export const adminFeature: Feature<AdminContext> = {
  name: 'admin',
  routes: (c) => {
    c.provided.admin = registerAdminRoutes(c.app, { db: c.service.db, registry: c.service.registry, auth: c.auth, options: c.adminOptions });
  },
};
