import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { AppError } from '../errors/app-error.ts';

type Row = Record<string, unknown>;

/**
 * A document made from another is not dated before it (issue 44 §4): a receipt of an order is not earlier than the
 * order. A source entry with `earlierDateAllowed` (a delivery of an order keyed late) is exempt.
 */
export function refuseBeforeSource(target: EntitySchema, source: EntitySchema, spec: DocumentSource, doc: Row, header: Row, sourceNo: string): void {
  if (spec.earlierDateAllowed) return;
  const field = target.document?.date;
  const sourceField = source.document?.date;
  if (!field || !sourceField || doc[field] === null || doc[field] === undefined || header[sourceField] === null || header[sourceField] === undefined) return;
  const date = String(doc[field]);
  const sourceDate = String(header[sourceField]);
  if (date >= sourceDate) return;
  throw new AppError('VALIDATION_FAILED', `${field}: ${date} is before ${sourceDate}, the date of ${source.label.en} ${sourceNo} it is made from`, {
    fields: [{ field, code: 'before_source', message: `must not be before ${sourceDate}, the date of ${sourceNo} it is made from`, params: { date: sourceDate, source: sourceNo } }],
  });
}
