import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import { ensureChartOfAccounts } from './chart-seed.ts';
import { installJournalPosting } from './journal-posting.ts';
import { installVoucherRules } from './voucher-rules.ts';
import { installReturnPosting } from './return-posting.ts';
import { fillMissingEntries } from './ledger-backfill.ts';
import { JOURNAL } from './journal-writer.ts';
import { installStockAdjustmentPosting } from './stock-adjustment-posting.ts';

/**
 * The general ledger (issue 50, docs/accounting.md): the chart of accounts on a fresh database,
 * the entries every posting document writes from its schema's `document.journal`, manual vouchers,
 * and the entries of documents posted before the ledger existed.
 */
export async function installLedger(app: FastifyInstance, service: EntityService): Promise<void> {
  // a test app may load a few schemas without the chart: then nothing posts
  if (!service.registry.get('account') || !service.registry.get(JOURNAL)) return;
  installVoucherRules(service);
  installJournalPosting(service);
  installReturnPosting(service);
  if (service.registry.get('stock_movement') && service.registry.get('inventory')) installStockAdjustmentPosting(service);
  await ensureChartOfAccounts(service);
  const written = await fillMissingEntries(service, (m) => app.log.warn(m));
  if (written) app.log.info(`general ledger: wrote the entries of ${written} documents posted before the ledger`);
}
