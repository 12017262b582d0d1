import { sql } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * The prints of a sale's slip (issue 51 §2), counted in `print_counter` under a key of their own (`pos_order.slip`),
 * apart from the generic document print's count and its per-role limit: the PDF slip (`GET …/slip`) and the
 * register's copy (`POST …/reprint`) share it, so a copy's number is the same whichever printed it.
 * The count includes the original: the first slip print is 1, a copy's number is the count less one.
 */
export const slipCounterKey = (entity: string): string => `${entity}.slip`;

/** The refusal of a copy to a role without the refund key and no supervisor's PIN (the screens ask for the PIN on it). */
export const copyNeedsSupervisor = (): AppError =>
  new AppError('FORBIDDEN', 'A copy of a slip needs a supervisor\'s approval (x-supervisor, x-supervisor-pin)', undefined, { reason: 'supervisor_needed' });

/**
 * Counts one print of the slip and answers the count after it. `uncounted`: what a sale without a count is taken to
 * have printed already (the register's reprint: the register printed the original itself, in the browser, which the
 * server never saw, so the first reprint counts the original too). A print that would be a copy when `mayCopy` is
 * false is refused (403 `supervisor_needed`) and not counted; the upsert takes the row's lock (PostgreSQL) or the
 * write lock (SQLite) and the check is made on the counted value in the same transaction, so two first prints at
 * once cannot both be the original.
 */
export async function countSlipPrint(db: Database, entity: string, id: number, opts: { uncounted: number; mayCopy: boolean }): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const row = await trx.insertInto('print_counter')
      .values({ entity: slipCounterKey(entity), record_id: id, count: opts.uncounted + 1, last_printed_at: now })
      .onConflict((oc) => oc.columns(['entity', 'record_id']).doUpdateSet({ count: sql`print_counter.count + 1`, last_printed_at: now }))
      .returning('count')
      .executeTakeFirstOrThrow();
    const count = Number(row.count);
    if (count > 1 && !opts.mayCopy) throw copyNeedsSupervisor();
    return count;
  });
}
