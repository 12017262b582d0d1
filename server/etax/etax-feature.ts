import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import type { MailSettings } from '../mail/mailer.ts';
import { ensureEtaxFileTable } from './etax-store.ts';
import { registerEtaxRoutes } from './etax-routes.ts';
import type { EtaxSettings } from './etax-settings.ts';

export interface EtaxContext extends FeatureBase {
  policy: PermissionPolicy;
  mail?: MailSettings;
  etax: EtaxSettings;
}

/** e-Tax invoices: the signed files kept, and their sending to the Revenue Department. */
export const etaxFeature: Feature<EtaxContext> = {
  name: 'etax',
  tables: [ensureEtaxFileTable],
  routes: ({ app, service, policy, contextOf, mail, etax }) => registerEtaxRoutes(app, service, policy, contextOf, { db: service.db, mail, settings: etax }),
};
