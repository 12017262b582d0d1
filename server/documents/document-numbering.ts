import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { seriesOrderKey } from '../../engine/documents/numbering-format.ts';
import { AppError } from '../errors/app-error.ts';
import type { ActionEvent } from '../crud/entity-service.ts';
import { nextNumber, seriesScope } from '../crud/numbering-series.ts';
import { isEmpty } from '../crud/record-values.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, unknown>;

/**
 * Posting a document whose series is drawn on posting (tax invoices, credit and
 * debit notes, receipts): its date is settled, then it takes the next number of
 * its series. All in the posting's transaction, so a posting that fails gives
 * the number back, and drafts that are deleted never had one: the series has
 * no gaps.
 */
export async function numberOnPost(trx: Kysely<any>, e: ActionEvent): Promise<void> {
  const n = e.entity.numbering;
  if (!n) return;
  if (n.dateField) await settleDate(trx, e);
  if (n.assignOn !== 'post' || !isEmpty(e.after[n.field])) return;
  const no = await nextNumber(trx, e.entity, e.after);
  await trx.updateTable(e.entity.name).set({ [n.field]: no }).where('id', '=', e.id).execute();
  e.after[n.field] = no;
  e.recordWritten = true;
}

/**
 * The document's date when it is posted: an empty one becomes today (the
 * business's). With `dateRule: "issue"` (Revenue Code s. 86/4 practice: the
 * date on a tax document is the day it was issued, and a series runs in date
 * order) a date after today, or before the date of the last numbered document
 * of the same series, is refused. The series' order row is locked first, so two
 * parallel postings of one series judge their dates one after the other.
 */
async function settleDate(trx: Kysely<any>, e: ActionEvent): Promise<void> {
  const n = e.entity.numbering!;
  const field = n.dateField!;
  const today = businessToday(businessClock.now(), businessClock.timeZone);
  if (isEmpty(e.after[field])) {
    await trx.updateTable(e.entity.name).set({ [field]: today }).where('id', '=', e.id).execute();
    e.after[field] = today;
    e.recordWritten = true;
  }
  if (n.dateRule !== 'issue') return;
  const date = String(e.after[field]);
  if (date > today) {
    throw dateError(e.entity, `${field}: ${date} is later than today (${today}); a tax document is dated the day it is issued`, { field, code: 'issue_date_future', message: `must not be later than today (${today})`, params: { today } });
  }
  const scope = seriesScope(e.entity, e.after);
  await trx.insertInto('numbering_counter').values({ series: seriesOrderKey(e.entity.name, scope), value: 0 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value` })).execute();
  const last = await lastIssued(trx, e.entity, e.after, e.id);
  if (last && date < String(last.date)) {
    throw dateError(e.entity, `${field}: ${date} is earlier than ${last.date}, the date of ${last.no}, the last issued in its series`, {
      field, code: 'issue_date_order', message: `must not be earlier than ${last.date}, the date of ${last.no}, the last issued in its series`, params: { last: String(last.date), no: String(last.no) },
    });
  }
}

/** The latest-dated issued (numbered, not a draft) document of the record's series (same `per` values), other than the record. */
async function lastIssued(trx: Kysely<any>, entity: EntitySchema, record: Row, id: number): Promise<{ date: unknown; no: unknown } | undefined> {
  const n = entity.numbering!;
  let q = trx.selectFrom(entity.name).select([`${n.dateField!} as date`, `${n.field} as no`])
    .where(n.field, 'is not', null).where('id', '!=', id);
  // drafts numbered before their series was drawn on posting (receipts of older data) were never issued
  if (entity.workflow) q = q.where(entity.workflow.field, '!=', entity.workflow.initial);
  for (const f of n.per ?? []) q = isEmpty(record[f]) ? q.where(f, 'is', null) : q.where(f, '=', record[f] as never);
  return q.orderBy(n.dateField!, 'desc').limit(1).executeTakeFirst();
}

function dateError(entity: EntitySchema, message: string, field: { field: string; code: string; message: string; params: Record<string, string> }): AppError {
  return new AppError('VALIDATION_FAILED', `${entity.label.en} ${message}`, { fields: [field] });
}
