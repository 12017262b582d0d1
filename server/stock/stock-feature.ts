import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { ImportJobStore } from '../imports/import-jobs.ts';
import { ensureStockTables } from './stock-ledger.ts';
import { installStockPosting } from './stock-posting.ts';
import { installFeatureGate } from './feature-gate.ts';
import { installSiteFlagRules } from './site-flag-rules.ts';
import { installAssetHistory } from './asset-history.ts';
import { registerStockRoutes } from './stock-routes.ts';

/** The stock ledger and its postings, the production gate, site settings' stock rules, assets, balances and the product import (issue 10). */
export const stockFeature: Feature<FeatureBase & { importJobs: ImportJobStore }> = {
  name: 'stock',
  tables: [ensureStockTables],
  listeners: [
    { name: 'stock posting', install: installStockPosting },
    { name: 'production gate', install: installFeatureGate },
    { name: 'site flag rules', install: (service, c) => installSiteFlagRules(service, (m) => c.app.log.warn(m)) },
    { name: 'asset history', install: installAssetHistory },
  ],
  routes: ({ app, service, contextOf, importJobs }) => registerStockRoutes(app, service, contextOf, importJobs),
};
