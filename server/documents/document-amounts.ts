import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { DecimalInputError } from '../../engine/documents/decimal-value.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import type { DocumentTotals } from '../../engine/documents/document-math.ts';
import { documentTotals, lineDiscountComputed, TOTAL_FIELDS } from '../../engine/documents/document-totals.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { linesOf } from './document-lines.ts';

type Row = Record<string, unknown>;

/** A document's totals from its header and lines; bad values are a 400 naming the field. */
export function computeTotals(entity: EntitySchema, header: Row, items: Row[]): DocumentTotals {
  try {
    return documentTotals(header, items, businessToday(businessClock.now(), businessClock.timeZone), Boolean(entity.document?.byAmount));
  } catch (err) {
    if (!(err instanceof DecimalInputError)) throw err;
    const field = err.field.replace(/\[(\d+)\]/g, '.$1');
    throw new AppError('VALIDATION_FAILED', err.message, { fields: [{ field, code: err.fieldCode, message: err.message, ...(err.params ? { params: err.params } : {}) }] });
  }
}

/**
 * Header totals and line amounts of a document with `amounts: true` are the
 * server's, computed by the engine's document arithmetic (the same code the
 * form uses) on every create and update; a client never sends them.
 *
 * A by-amount document (billing notes) keeps its totals as writable fields so
 * a portal client can send an unchanged bill back: a total sent with another
 * value than the lines give is left as sent here, so the lock and field rules
 * refuse it with their own codes, and `installTotalsCheck` refuses what they let through.
 */
export function computeAmounts(service: EntityService, entity: EntitySchema, input: Row, before: Row | null): void {
  if (!entity.document?.amounts) return;
  const lines = linesOf(service, entity);
  const sent = Array.isArray(input[lines.field]) ? (input[lines.field] as Row[]) : null;
  // a new line takes its schema defaults before it is priced (a quantity left out is 1), as it will be stored
  sent?.forEach((l) => { if (l && typeof l === 'object' && l.id === undefined) fillLineDefaults(lines.entity, l); });
  const items = sent ?? ((before?.[lines.field] as Row[] | undefined) ?? []);
  const totals = computeTotals(entity, { ...(before ?? {}), ...input }, items);
  const byAmount = Boolean(entity.document.byAmount);
  for (const f of TOTAL_FIELDS) {
    if (!fieldOf(entity, f)) continue;
    if (byAmount && f in input && input[f] !== null && Number(input[f]) !== totals[f]) continue;
    input[f] = totals[f];
  }
  if (!sent || byAmount) return;
  sent.forEach((l, i) => {
    const t = totals.items[i]!;
    if (fieldOf(lines.entity, 'amount')) l.amount = t.amount;
    if (lineDiscountComputed(l) && fieldOf(lines.entity, 'discount_amount')) l.discount_amount = t.discount;
  });
}

/** The plain schema defaults (not "$NOW"-like ones) of the fields a new line leaves out. */
function fillLineDefaults(lines: EntitySchema, line: Row): void {
  for (const [name, f] of Object.entries(lines.fields)) {
    if (name in line || f.default === undefined || f.readOnly || (typeof f.default === 'string' && f.default.startsWith('$'))) continue;
    line[name] = f.default;
  }
}

/** A by-amount document's stored totals must be what its lines give (see computeAmounts). */
export function installTotalsCheck(service: EntityService): void {
  service.onWrite(async (_trx, e) => {
    if (e.action !== 'create' && e.action !== 'update') return;
    const entity = service.entity(e.entity);
    if (!e.after) return;
    const lines = linesOf(service, entity);
    const totals = computeTotals(entity, e.after, (e.after[lines.field] as Row[] | undefined) ?? []);
    const wrong = TOTAL_FIELDS.filter((f) => fieldOf(entity, f) && f !== 'vat_rate' && Number(e.after![f] ?? 0) !== totals[f]);
    if (wrong.length) {
      throw new AppError('VALIDATION_FAILED', `${wrong.join(', ')}: computed from the lines, so ${wrong.map((f) => `${f} is ${totals[f]}`).join(', ')}`, {
        fields: wrong.map((field) => ({ field, code: 'computed', message: `is computed from the lines: ${totals[field]}` })),
      });
    }
  }, (entity) => !!(entity.document?.amounts && entity.document.byAmount));
}
