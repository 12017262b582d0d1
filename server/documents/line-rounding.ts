import type { Kysely } from 'kysely';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { toNumber } from '../../engine/documents/decimal-value.ts';
import { TOTAL_FIELDS } from '../../engine/documents/document-totals.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { computeTotals } from './document-amounts.ts';
import { linesOf } from './document-lines.ts';

type Row = Record<string, unknown>;

/** A line of the posted document that took the last of its source line by quantity. */
export interface FinishingLine { line: Row; spec: DocumentSource; sourceLineId: number }

/**
 * Issue 44 §9, "the finishing document takes exactly what is left": each part of a line split by quantity is
 * priced on its own (qty × price, half-up), so with three parts or more the earlier ones can round *down*
 * (4.2 × 0.33 = 1.39 taken 1.4 at a time: 0.46 + 0.46, leaving 0.47 where 1.4 × 0.33 gives 0.46). A part that
 * rounds the other way takes a finishing discount when it is made (discount-carry.ts); a discount cannot add,
 * so the line posted last gets the missing satang in `rounding_amount` (the field's presence on the target's
 * lines is the declaration), and the document's totals (its VAT: rate × the new base) are worked out again.
 *
 * Only where the parts are priced as the source line was (the source carries `price` and its line discounts,
 * so the amounts compare), and only by what rounding can explain: at most a satang per part.
 */
export async function settleLineRounding(trx: Kysely<any>, service: EntityService, e: ActionEvent, finishing: FinishingLine[]): Promise<void> {
  const target = e.entity;
  const tLines = linesOf(service, target);
  if (!finishing.length || !fieldOf(tLines.entity, 'rounding_amount') || !fieldOf(tLines.entity, 'amount')) return;
  const adds = new Map<number, number>();
  for (const f of finishing) {
    if ((f.spec.measure ?? 'qty') !== 'qty' || !f.spec.lineFields?.includes('price') || !f.spec.lineFields.includes('discount_amount')) continue;
    const sLines = linesOf(service, service.entity(f.spec.source));
    const src = await trx.selectFrom(sLines.entity.name).select('amount').where('id', '=', f.sourceLineId).executeTakeFirst();
    // the posted lines of this kind made from the source line (a cancelled one's links are gone), this one included
    const parts = await trx.selectFrom('document_link as l').innerJoin(`${tLines.entity.name} as tl`, 'tl.id', 'l.target_line_id')
      .select('tl.amount as amount')
      .where('l.target_entity', '=', target.name).where('l.source_entity', '=', f.spec.source).where('l.source_line_id', '=', f.sourceLineId).execute();
    // money is stored as whole satang, so these sums are exact
    const short = Number(src?.amount ?? 0) - parts.reduce((s, r) => s + Number(r.amount ?? 0), 0);
    if (short > 0 && short <= parts.length) adds.set(Number(f.line.id), (adds.get(Number(f.line.id)) ?? 0) + short);
  }
  if (!adds.size) return;
  const lines = ((e.after[tLines.field] as Row[] | undefined) ?? []).map((l) => {
    const add = adds.get(Number(l.id));
    return add ? { ...l, rounding_amount: toNumber(BigInt(Math.round(Number(l.rounding_amount ?? 0) * 100) + add), 2) } : l;
  });
  const totals = computeTotals(target, e.after, lines);
  for (const [i, l] of lines.entries()) {
    const add = adds.get(Number(l.id));
    if (!add) continue;
    const amount = totals.items[i]!.amount;
    await trx.updateTable(tLines.entity.name).set({ rounding_amount: Math.round(Number(l.rounding_amount) * 100), amount: Math.round(amount * 100) }).where('id', '=', Number(l.id)).execute();
    l.amount = amount;
  }
  const header: Row = {};
  for (const f of TOTAL_FIELDS) if (f !== 'vat_rate' && fieldOf(target, f)) header[f] = Math.round(totals[f] * 100);
  await trx.updateTable(target.name).set(header).where('id', '=', e.id).execute();
  e.recordWritten = true;
  e.after[tLines.field] = lines;
  for (const [f, satang] of Object.entries(header)) e.after[f] = toNumber(BigInt(satang as number), 2);
}
