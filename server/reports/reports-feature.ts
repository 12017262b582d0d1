import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { ReportCatalogue } from './report-catalogue.ts';
import { registerCollectionSummary } from './collection-summary.ts';
import { registerTextExportRoute } from './text-export-route.ts';
import { registerReportRoutes } from './report-routes.ts';

/** The reports of schemas/reports, their text export, and the collection summary. */
export const reportsFeature: Feature<FeatureBase & { reports: ReportCatalogue }> = {
  name: 'reports',
  routes: ({ app, service, contextOf, reports }) => {
    registerCollectionSummary(app, service, contextOf);
    registerTextExportRoute(app, service, reports, contextOf);
    registerReportRoutes(app, service, reports, contextOf);
  },
};
