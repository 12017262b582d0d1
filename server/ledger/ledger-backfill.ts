import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { journalOf, POSTED } from './journal-writer.ts';
import { postDocument, postsToBooks } from './journal-posting.ts';
import { adjustmentTables, postStockAdjustment } from './stock-adjustment-posting.ts';

const BATCH = 200;

/**
 * One transaction for the batch; when it fails, each document in its own, so one that cannot post (a role
 * missing from an edited chart) does not hold back the others: it is told, and tried again at the next start.
 */
async function inBatch(service: EntityService, ids: number[], post: (trx: Kysely<any>, id: number) => Promise<boolean>, what: string, log: (m: string) => void): Promise<number> {
  const k = service.db.kysely;
  try {
    return await k.transaction().execute(async (trx) => { let n = 0; for (const id of ids) if (await post(trx, id)) n++; return n; });
  } catch {
    let n = 0;
    for (const id of ids) {
      try {
        if (await k.transaction().execute((trx) => post(trx, id))) n++;
      } catch (err) {
        log(`warning: the entry of ${what} ${id} was not written: ${(err as Error).message}`);
      }
    }
    return n;
  }
}

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
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom(journalOf(service.registry)).select('id').where('source_entity', '=', entity.name).whereRef('source_id', '=', `${entity.name}.id`).where('status', '=', POSTED))))
        .orderBy('id').limit(BATCH).execute()).map((r) => Number(r.id));
      if (!ids.length) break;
      after = ids[ids.length - 1]!;
      written += await inBatch(service, ids, (trx, id) => postDocument(trx, service, entity, id, { history: true }), `${entity.name}`, log);
    }
  }
  if (service.registry.holder('stockMovements')) written += await fillAdjustments(service, log);
  return written;
}

/**
 * Stock adjustments (movements written straight to the stock ledger) without an entry, as above: only those that
 * post one (a value, in an inventory of a company, as postStockAdjustment asks), so the movements that post nothing
 * are not read again one by one at every start (a million of them in a benchmark ledger took minutes).
 */
async function fillAdjustments(service: EntityService, log: (m: string) => void): Promise<number> {
  const k = service.db.kysely;
  const { ledger, inventory } = adjustmentTables(service.registry);
  let written = 0;
  let after = 0;
  for (;;) {
    const ids = (await k.selectFrom(`${ledger} as m`).innerJoin(`${inventory} as inv`, 'inv.id', 'm.inventory_id').select('m.id')
      .where('m.doc_entity', 'is', null).where('m.id', '>', after).where('inv.your_company_id', 'is not', null).where('m.value', '!=', 0)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom(journalOf(service.registry)).select('id').where('source_entity', '=', ledger).whereRef('source_id', '=', 'm.id'))))
      .orderBy('m.id').limit(BATCH).execute()).map((r) => Number(r.id));
    if (!ids.length) break;
    after = ids[ids.length - 1]!;
    written += await inBatch(service, ids, (trx, id) => postStockAdjustment(trx, service, id, { history: true }), 'stock adjustment', log);
  }
  return written;
}
