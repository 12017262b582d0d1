import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import { ensureOverrideTable } from './schema-overrides.ts';
import { ensureCustomFieldTable } from './custom-fields.ts';
import { registerMetaRoutes } from './meta-routes.ts';
import { registerPageSettingRoutes } from './page-setting-routes.ts';
import { registerCustomFieldRoutes } from './custom-field-routes.ts';

/** The schemas as the screens read them, their overrides, page settings and custom fields. */
export const metaFeature: Feature<FeatureBase & { policy: PermissionPolicy }> = {
  name: 'meta',
  tables: [ensureOverrideTable, ensureCustomFieldTable],
  routes: (c) => {
    // the same rule as reading: view on the menu key, or the own-rows exceptions (own account, own alerts)
    registerMetaRoutes(c.app, c.service, c.contextOf, (ctx, e) => c.policy.canReadField(ctx, e, 'id', false));
    registerPageSettingRoutes(c.app, c.service.db, c.service.registry);
    registerCustomFieldRoutes(c.app, { db: c.service.db, registry: c.service.registry, contextOf: c.contextOf });
  },
};
