import type { FastifyInstance } from 'fastify';
import type { EntityService } from '../crud/entity-service.ts';
import { ensureChartOfAccounts } from './chart-seed.ts';

/**
 * The general ledger (issue 50, docs/accounting.md): the chart of accounts on a fresh database,
 * the entries every posting document writes from its schema's `document.journal`, manual vouchers,
 * and the entries of documents posted before the ledger existed.
 */
export async function installLedger(_app: FastifyInstance, service: EntityService): Promise<void> {
  await ensureChartOfAccounts(service);
}
