import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { PermissionPolicy } from '../auth/permission-policy.ts';
import { ensurePrintCounterTable } from './print-counter.ts';
import { parseId, registerPrintRoutes, type PrintFiles } from './print-routes.ts';
import { registerPortalPdfRoute } from './portal-pdf.ts';
import { installPromptPayIdCheck, registerPromptPayRoutes } from './promptpay-qr.ts';

export interface PrintContext extends FeatureBase {
  policy: PermissionPolicy;
  printFiles: PrintFiles;
}

/** Printed documents (PDF), the portal's PDF, and PromptPay. */
export const printFeature: Feature<PrintContext> = {
  name: 'print',
  tables: [ensurePrintCounterTable],
  listeners: [{ name: 'PromptPay id check', install: installPromptPayIdCheck }],
  routes: ({ app, service, policy, contextOf, printFiles }) => {
    registerPrintRoutes(app, service, policy, contextOf, { db: printFiles.db, files: printFiles });
    registerPortalPdfRoute(app, service, policy, contextOf, printFiles);
    registerPromptPayRoutes(app, service, contextOf, parseId);
  },
};
