import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { JOURNAL, POSTED } from './journal-writer.ts';
import { postDocument, postsToBooks } from './journal-posting.ts';
import { postStockAdjustment, STOCK_LEDGER } from './stock-adjustment-posting.ts';

const BATCH = 200;

/**
 * The states a document is in once posted and not cancelled: every state but the initial one and the one its
 * cancel action leads to. A cancelled document is left out: its entry and its reversal would add up to nothing.
 */
function postedStates(entity: EntitySchema): string[] {
  const w = entity.workflow!;
  const cancel = entity.document!.cancelAction ?? 'cancel';
  const gone = new Set([w.initial, ...w.transitions.filter((t) => t.action === cancel).map((t) => t.to)]);
  return w.states.map((s) => s.value).filter((s) => !gone.has(s));
}

/**
 * A database from before the ledger (or a document posted while its schema had no journal) gets the entries of
 * its posted documents when the server starts: in batches of BATCH documents, one transaction each, in the order they were made,
 * skipping those that have an entry, so running it again writes nothing. Answers the entries written.
 */
export async function fillMissingEntries(service: EntityService, log: (m: string) => void = () => undefined): Promise<number> {
  const k = service.db.kysely;
  let written = 0;
  for (const entity of service.registry.all().filter((e) => postsToBooks(service, e))) {
    const states = postedStates(entity);
    let after = 0;
    for (;;) {
      const ids = (await k.selectFrom(entity.name).select('id').where(entity.workflow!.field, 'in', states).where('id', '>', after)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom(JOURNAL).select('id').where('source_entity', '=', entity.name).whereRef('source_id', '=', `${entity.name}.id`).where('status', '=', POSTED))))
        .orderBy('id').limit(BATCH).execute()).map((r) => Number(r.id));
      if (!ids.length) break;
      after = ids[ids.length - 1]!;
      try {
        await k.transaction().execute(async (trx) => {
          for (const id of ids) if (await postDocument(trx, service, entity, id)) written++;
        });
      } catch (err) {
        // one document that cannot post (a role missing from an edited chart) must not stop the server; it is told, and tried at the next start
        log(`warning: the entries of ${entity.name} ${ids[0]}..${after} were not written: ${(err as Error).message}`);
      }
    }
  }
  if (service.registry.get(STOCK_LEDGER)) written += await fillAdjustments(service, log);
  return written;
}

/** Stock adjustments (movements written straight to the stock ledger) without an entry, as above. */
async function fillAdjustments(service: EntityService, log: (m: string) => void): Promise<number> {
  const k = service.db.kysely;
  let written = 0;
  let after = 0;
  for (;;) {
    const ids = (await k.selectFrom(STOCK_LEDGER).select('id').where('doc_entity', 'is', null).where('id', '>', after)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom(JOURNAL).select('id').where('source_entity', '=', STOCK_LEDGER).whereRef('source_id', '=', `${STOCK_LEDGER}.id`))))
      .orderBy('id').limit(BATCH).execute()).map((r) => Number(r.id));
    if (!ids.length) break;
    after = ids[ids.length - 1]!;
    try {
      await k.transaction().execute(async (trx) => { for (const id of ids) if (await postStockAdjustment(trx, service, id)) written++; });
    } catch (err) {
      log(`warning: the entries of stock adjustments ${ids[0]}..${after} were not written: ${(err as Error).message}`);
    }
  }
  return written;
}
