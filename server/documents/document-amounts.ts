import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { DecimalInputError } from '../../engine/documents/decimal-value.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { documentTotals, lineDiscountComputed, TOTAL_FIELDS } from '../../engine/documents/document-totals.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { businessClock } from './business-clock.ts';
import { linesOf } from './document-posting.ts';

type Row = Record<string, unknown>;

/**
 * Header totals and line amounts of a document with `amounts: true` are the
 * server's, computed by the engine's document arithmetic (the same code the
 * form uses) on every create and update; a client never sends them.
 */
export function computeAmounts(service: EntityService, entity: EntitySchema, input: Row, before: Row | null): void {
  if (!entity.document?.amounts) return;
  const lines = linesOf(service, entity);
  const sent = Array.isArray(input[lines.field]) ? (input[lines.field] as Row[]) : null;
  const items = sent ?? ((before?.[lines.field] as Row[] | undefined) ?? []);
  let totals;
  try {
    totals = documentTotals({ ...(before ?? {}), ...input }, items, businessToday(businessClock.now(), businessClock.timeZone));
  } catch (err) {
    if (!(err instanceof DecimalInputError)) throw err;
    const field = err.field.replace(/\[(\d+)\]/g, '.$1');
    throw new AppError('VALIDATION_FAILED', err.message, { fields: [{ field, code: 'decimal', message: err.message }] });
  }
  for (const f of TOTAL_FIELDS) if (fieldOf(entity, f)) input[f] = totals[f];
  if (!sent) return;
  sent.forEach((l, i) => {
    const t = totals.items[i]!;
    if (fieldOf(lines.entity, 'amount')) l.amount = t.amount;
    if (lineDiscountComputed(l) && fieldOf(lines.entity, 'discount_amount')) l.discount_amount = t.discount;
  });
}
