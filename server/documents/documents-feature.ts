import type { Feature } from '../crud/feature-contract.ts';
import { ensureDocumentTables } from './document-progress.ts';
import { fillTrackedStatuses } from './tracked-status-fill.ts';
import { fillTaxInvoiceRoles } from './tax-invoice-role-fill.ts';
import { installClosedBooks } from './closed-books.ts';
import { installCancelGuard } from './cancel-guard.ts';
import { installDocumentPosting } from './document-posting.ts';
import { installDefaultCompany, registerNewRecordDefaults } from './default-company.ts';
import { installDocumentFills } from './document-fills.ts';
import { installDocumentLinkSpread } from './document-link-spread.ts';
import { installSourcesWhtRate } from './sources-wht-rate.ts';
import { computeAmounts, installTotalsCheck } from './document-amounts.ts';
import { installWithholdingAmounts } from './withholding-amounts.ts';
import { installWithholdingVoucher } from './withholding-voucher.ts';
import { installTaxInvoiceRules } from './tax-invoice-rules.ts';
import { installTaxInvoiceSupply } from './tax-invoice-supply.ts';
import { installNoteCorrects } from './note-corrects.ts';
import { registerDocumentRoutes } from './document-routes.ts';
import { registerDocumentChainRoutes } from './document-chain-routes.ts';
import { registerFillRoutes } from './fill-routes.ts';

/**
 * Documents made from others: their progress tables, posting and cancelling, amounts, tax invoices and notes.
 * The listeners run in this order on every action and write of a document.
 */
export const documentsFeature: Feature = {
  name: 'documents',
  tables: [
    ensureDocumentTables,
    // a tracked status column just added to rows that exist is worked out from the progress counters
    (db, registry) => fillTrackedStatuses(db.kysely, registry.fileSchemas()),
    // receipts posted before their tax-invoice role was stored keep the role they were printed with (tax-invoice-role-fill.ts)
    (db, registry) => fillTaxInvoiceRoles(db.kysely, registry),
  ],
  listeners: [
    // first: an action on a document of a closed period does nothing at all
    { name: 'closed books', install: installClosedBooks },
    // before the posting: it takes the source headers' locks first (see cancel-guard.ts)
    { name: 'cancel guard', install: installCancelGuard },
    { name: 'posting', install: installDocumentPosting },
    { name: 'default company', install: installDefaultCompany },
    { name: 'fills from sources', install: installDocumentFills },
    { name: 'link spread', install: installDocumentLinkSpread },
    { name: 'sources withholding rate', install: installSourcesWhtRate },
    { name: 'amounts', install: (service) => service.onPrepare((entity, input, before) => computeAmounts(service, entity, input, before)) },
    { name: 'totals check', install: installTotalsCheck },
    { name: 'withholding amounts', install: installWithholdingAmounts },
    { name: 'withholding certificate of a voucher', install: installWithholdingVoucher },
    { name: 'tax invoice rules', install: installTaxInvoiceRules },
    { name: 'tax invoice supply', install: installTaxInvoiceSupply },
    { name: 'notes correct an invoice', install: installNoteCorrects },
  ],
  routes: ({ app, service, contextOf }) => {
    registerDocumentRoutes(app, service, contextOf);
    registerDocumentChainRoutes(app, service, contextOf);
    registerFillRoutes(app, service, contextOf);
    registerNewRecordDefaults(app, service, contextOf);
  },
};
