import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { openLines, type CreateFromBody } from './create-from.ts';

type Row = Record<string, unknown>;

/** Money as integer satang, so the spread adds up to exactly the amount received. */
const satang = (v: number) => Math.round(v * 100);

/**
 * One amount received spread over the open lines of the chosen source documents
 * (`POST /api/receipt/from/billing_note` with `amount`): any document made from
 * another by amount (`measure: "amount"`) accepts it. The lines are filled oldest
 * due first (the source's `due_date`, else its numbering date; then the document
 * and line order), each up to what is still open on it, until the amount is used;
 * the body then goes on as one with `lines`, so the ordinary create-from checks,
 * rights and numbering apply and the draft's lines stay editable. An amount above
 * what is open, or with `lines` beside it, is a 400 that names the field.
 * Answers the body unchanged when it has no `amount`.
 */
export async function spreadAmount(service: EntityService, target: EntitySchema, spec: DocumentSource, body: CreateFromBody | null, ctx: RequestContext): Promise<CreateFromBody | null> {
  const raw = (body as { amount?: unknown } | null)?.amount;
  if (raw === undefined) return body;
  const fail = (code: string, message: string, params?: Record<string, string | number>) =>
    new AppError('VALIDATION_FAILED', `amount: ${message}`, { fields: [{ field: 'amount', code, message, ...(params ? { params } : {}) }] });
  if ((spec.measure ?? 'qty') !== 'amount') throw fail('invalid', `a ${target.label.en} from ${spec.source} takes quantities per line, not one amount`);
  if (body?.lines !== undefined) throw fail('invalid', 'send either one amount to spread or the lines, not both');
  const amount = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) throw fail('positive', 'must be more than 0');
  const ids = Array.isArray(body?.ids) ? body!.ids.map(String).join(',') : '';
  const open = (await openLines(service, target.name, spec.source, ids, ctx)).filter((l) => l.remaining > 0);
  const source = service.entity(spec.source);
  const dueField = source.fields.due_date?.type === 'date' ? 'due_date' : source.numbering?.dateField;
  const due = new Map<number, string>();
  for (const id of new Set(open.map((l) => l.document_id))) {
    const doc = dueField ? await service.get(spec.source, id, ctx) : null;
    // a document without a due date settles after those with one
    due.set(id, String((dueField && doc?.[dueField]) || '9999-12-31'));
  }
  const order = [...open].sort((a, b) => due.get(a.document_id)!.localeCompare(due.get(b.document_id)!)
    || a.document_id - b.document_id || Number(a.line_no ?? 0) - Number(b.line_no ?? 0) || a.source_line_id - b.source_line_id);
  const total = order.reduce((s, l) => s + satang(l.remaining), 0);
  let left = satang(amount);
  if (left > total) throw fail('maximum', `is more than the ${(total / 100).toFixed(2)} still open on the chosen documents`, { limit: (total / 100).toFixed(2) });
  const lines: Row[] = [];
  for (const l of order) {
    if (left <= 0) break;
    const take = Math.min(left, satang(l.remaining));
    lines.push({ source_line_id: l.source_line_id, amount: (take / 100).toFixed(2) });
    left -= take;
  }
  const { amount: _spread, ...rest } = body as CreateFromBody & { amount?: unknown };
  // the documents in the order they are settled, so the receipt's lines read in that order too
  const settled = [...new Set(order.map((l) => l.document_id))];
  const others = (body!.ids as unknown[]).filter((id) => !settled.includes(Number(id)));
  return { ...rest, ids: [...settled, ...others], lines };
}
