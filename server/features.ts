import type { Feature, FeatureBase } from './crud/feature-contract.ts';
import { authFeature, type AuthContext } from './auth/auth-feature.ts';
import { sessionFeature, type SessionContext } from './session/session-feature.ts';
import { auditFeature } from './audit/audit-feature.ts';
import { filesFeature } from './files/files-feature.ts';
import { adminFeature, type AdminContext } from './admin/admin-feature.ts';
import { metaFeature } from './meta/meta-feature.ts';
import { crudFeature } from './crud/crud-feature.ts';
import { attributesFeature } from './attributes/attributes-feature.ts';
import { documentsFeature } from './documents/documents-feature.ts';
import { reportsFeature } from './reports/reports-feature.ts';
import { posFeature } from './pos/pos-feature.ts';
import { stockFeature } from './stock/stock-feature.ts';
import { barcodesFeature } from './barcodes/barcodes-feature.ts';
import { ledgerFeature } from './ledger/ledger-feature.ts';
import { printFeature, type PrintContext } from './print/print-feature.ts';
import { mailFeature } from './mail/mail-feature.ts';
import { etaxFeature, type EtaxContext } from './etax/etax-feature.ts';
import type { FileRouteOptions } from './files/file-routes.ts';
import type { ImportJobStore } from './imports/import-jobs.ts';

/** Everything the features are handed (server/app.ts makes it): the sum of each feature's own context. */
export interface FeatureContext extends FeatureBase, AuthContext, SessionContext, AdminContext, PrintContext, EtaxContext {
  uploads: FileRouteOptions;
  importJobs: ImportJobStore;
}

/**
 * The server's features, in order (issue 46 §1). At start their tables are made in this order
 * (server/bootstrap.ts); when the app is built each feature's listeners are registered, then its
 * routes (server/app.ts). The order of the listeners is the order they run in on every write and
 * action, so it is this array's, not prose: auth first (every write is audited before anything else
 * sees it), the documents' closed books before their posting, stock after the documents it posts,
 * barcodes after stock (a scanned pack follows the stock posting), the ledger after stock (a delivery's
 * cost of goods sold is the value the stock ledger has just moved). A new feature is one more line here.
 */
export const FEATURES: readonly Feature<FeatureContext>[] = [
  authFeature,
  sessionFeature,
  auditFeature,
  filesFeature,
  adminFeature,
  metaFeature,
  crudFeature,
  attributesFeature,
  documentsFeature,
  reportsFeature,
  posFeature,
  stockFeature,
  barcodesFeature,
  ledgerFeature,
  printFeature,
  mailFeature,
  etaxFeature,
];
