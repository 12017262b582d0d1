import type { Feature, FeatureBase } from '../crud/feature-contract.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { ensureChartOfAccounts } from './chart-seed.ts';
import { installJournalPosting } from './journal-posting.ts';
import { installVoucherRules } from './voucher-rules.ts';
import { installReturnPosting } from './return-posting.ts';
import { fillMissingEntries } from './ledger-backfill.ts';
import { journalOf, POSTED } from './journal-writer.ts';
import { ensureJournalDays, journalTables } from './journal-days.ts';
import { fillEntryCopies } from './entry-copy.ts';
import { installStockAdjustmentPosting } from './stock-adjustment-posting.ts';
import { registerDocumentJournalRoutes } from './document-journal-routes.ts';
import { registerYearClose } from './year-close.ts';

// a test app may load a few schemas without the chart: then nothing posts
const hasBooks = (service: EntityService) => !!service.registry.holder('chartOfAccounts') && !!service.registry.holder('journalEntries');
const withBooks = (install: (service: EntityService) => void) => (service: EntityService) => { if (hasBooks(service)) install(service); };

/**
 * The general ledger (issue 50, docs/accounting.md): the entries every posting document writes from
 * its schema's `document.journal`, manual vouchers, the chart of accounts on a fresh database, and
 * the entries of documents posted before the ledger existed, and the year-end closing (POST /api/ledger/close-year). It comes after stock in the feature list:
 * a delivery's cost of goods sold is the value the stock ledger has just moved.
 */
export const ledgerFeature: Feature<FeatureBase> = {
  name: 'ledger',
  // the day summaries the ledger reports read (journal-days.ts), filled from the posted lines when they miss some
  tables: [
    (db, registry) => ensureJournalDays(db, journalTables(registry, journalOf(registry), POSTED)),
    // lines from before they carried their entry's date and company (entry-copy.ts) take them from their entries
    (db, registry) => fillEntryCopies(db, journalTables(registry, journalOf(registry), POSTED)).then(() => undefined),
  ],
  listeners: [
    { name: 'voucher rules', install: withBooks(installVoucherRules) },
    { name: 'journal posting', install: withBooks(installJournalPosting) },
    { name: 'return posting', install: withBooks(installReturnPosting) },
    {
      name: 'stock adjustment posting',
      install: withBooks((service) => { if (service.registry.holder('stockMovements')) installStockAdjustmentPosting(service); }),
    },
  ],
  routes: async ({ app, service, contextOf }) => {
    if (!hasBooks(service)) return;
    registerDocumentJournalRoutes(app, service, contextOf);
    registerYearClose(app, service, contextOf);
    await ensureChartOfAccounts(service);
    const written = await fillMissingEntries(service, (m) => app.log.warn(m));
    if (written) app.log.info(`general ledger: wrote the entries of ${written} documents posted before the ledger`);
  },
};
