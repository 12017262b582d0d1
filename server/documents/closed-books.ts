import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty } from '../crud/record-values.ts';

type Row = Record<string, unknown>;

/** The field of the issuing company that closes its books: documents dated on or before it are final. */
export const BOOKS_CLOSED_FIELD = 'books_closed_until';

/**
 * Closed books (issue 44 §4, docs/documents.md "Closed books"): accountants close a month once its ภ.พ.30 is filed,
 * by setting the company's `books_closed_until`. From then on no document of that company dated on or before it is
 * issued, posted, cancelled or amended (every workflow action, and edits of a document that left its draft):
 * 409 PERIOD_CLOSED naming the date. Applies to every document entity that declares its date (`document.date`)
 * and its issuing company (`access.companyField`) and whose company has that field.
 */
export function closesWithBooks(service: EntityService, entity: EntitySchema): boolean {
  const date = entity.document?.date;
  const company = entity.access?.companyField;
  if (!date || !company || !entity.workflow) return false;
  const link = fieldOf(entity, company);
  const target = link?.type === 'link' ? service.registry.get(link.entity!) : undefined;
  return Boolean(target && fieldOf(target, BOOKS_CLOSED_FIELD)?.type === 'date');
}

/** Refuses when `record` (a document of an entity that closes with the books) is dated on or before its company's closing date. */
export async function refuseClosedPeriod(k: Kysely<any>, service: EntityService, entity: EntitySchema, record: Row): Promise<void> {
  if (!closesWithBooks(service, entity)) return;
  const companyId = record[entity.access!.companyField!];
  if (isEmpty(companyId)) return;
  const companyEntity = fieldOf(entity, entity.access!.companyField!)!.entity!;
  const row = await k.selectFrom(companyEntity).select(BOOKS_CLOSED_FIELD).where('id', '=', Number(companyId)).executeTakeFirst();
  const closed = row?.[BOOKS_CLOSED_FIELD];
  if (isEmpty(closed)) return;
  const field = entity.document!.date!;
  // an undated draft is dated today when it posts
  const date = isEmpty(record[field]) ? businessToday(businessClock.now(), businessClock.timeZone) : String(record[field]);
  if (date > String(closed)) return;
  const number = String(record[entity.titleField] ?? record.id ?? '');
  throw new AppError('PERIOD_CLOSED',
    `${entity.label.en} ${number} is dated ${date}, on or before ${closed}, when the company's books were closed: it can no longer be issued, posted, cancelled or amended`,
    { field, date, books_closed_until: String(closed) },
    { entity: entity.label, number, date, closed: String(closed) });
}

/**
 * Hooks the rule into every workflow action of those documents (before the other listeners, so nothing of the
 * action runs) and into edits and deletes of those that left their draft state.
 */
export function installClosedBooks(service: EntityService): void {
  service.onAction(async (trx, e) => {
    await refuseClosedPeriod(trx, service, e.entity, e.before);
    const field = e.entity.document!.date!;
    if (e.after[field] !== e.before[field]) await refuseClosedPeriod(trx, service, e.entity, e.after);
  }, (entity) => closesWithBooks(service, entity));
  service.onWrite(async (trx, e) => {
    if (e.action === 'create' || e.workflowAction || !e.before) return;
    const entity = service.entity(e.entity);
    const w = entity.workflow!;
    if (e.before[w.field] === w.initial) return;
    await refuseClosedPeriod(trx, service, entity, e.before);
  }, (entity) => closesWithBooks(service, entity));
}
