import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { documentTotals } from '../../engine/documents/document-totals.ts';
import { columnDefs, decodeRow } from '../db/field-codec.ts';
import { inBatches } from '../db/batches.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { doneOf } from './document-progress.ts';
import { linesOf, scaled } from './document-lines.ts';

type Row = Record<string, unknown>;

/**
 * What each line of a source document holds for documents that take from it, as the scaled
 * integer that the progress counters count (docs/documents.md, "Carrying discounts"):
 * - measure "qty": its quantity;
 * - measure "amount": its part of the source's total, after its own discount and its share of the
 *   document discount, VAT included (`total_share` of the engine). The parts add up exactly to the
 *   source's total, so a source taken in full has been billed, received or credited to the satang,
 *   and over-processing is judged on what the customer really owes.
 */
export function capacitiesOf(source: EntitySchema, lineEntity: EntitySchema, header: Row, lines: Row[], measure: string): Map<number, number> {
  const out = new Map<number, number>();
  if (measure !== 'amount') {
    for (const l of lines) out.set(Number(l.id), scaled(lineEntity, measure, l[measure]));
    return out;
  }
  const today = businessToday(businessClock.now(), businessClock.timeZone);
  const totals = documentTotals(header, lines, today, Boolean(source.document?.byAmount));
  lines.forEach((l, i) => out.set(Number(l.id), Math.round(totals.items[i]!.total_share * 100)));
  // a VAT remainder the source carries (vat_adjustment, vat-remainder.ts) is in its total but in no line's share: the
  // last line holds it, so an order of 107.06 (107.05 + 0.01 remainder) can be billed and paid 107.06 (issue 44 §9)
  const adjustment = Math.round(Number(header.vat_adjustment ?? 0) * 100);
  const last = lines[lines.length - 1];
  if (adjustment && last) out.set(Number(last.id), out.get(Number(last.id))! + adjustment);
  return out;
}

/** The capacities of every line of these source documents, read in the caller's transaction. */
export async function lineCapacities(k: Kysely<any>, service: EntityService, source: EntitySchema, measure: string, sourceIds: number[]): Promise<Map<number, number>> {
  const lines = linesOf(service, source);
  const out = new Map<number, number>();
  if (measure !== 'amount') {
    // a quantity is stored as the scaled integer the counters count
    for (const batch of inBatches(sourceIds, 1)) {
      for (const r of await k.selectFrom(lines.entity.name).select(['id', measure]).where(lines.parentField, 'in', batch).execute()) out.set(Number(r.id), Number(r[measure]));
    }
    return out;
  }
  const headCols = columnDefs(source);
  const lineCols = columnDefs(lines.entity);
  for (const batch of inBatches(sourceIds, 1)) {
    const heads = await k.selectFrom(source.name).selectAll().where('id', 'in', batch).execute();
    const rows = await k.selectFrom(lines.entity.name).selectAll().where(lines.parentField, 'in', batch).orderBy('line_no').orderBy('id').execute();
    for (const h of heads) {
      const mine = rows.filter((r) => Number(r[lines.parentField]) === Number(h.id)).map((r) => decodeRow(lineCols, r, null));
      for (const [id, cap] of capacitiesOf(source, lines.entity, decodeRow(headCols, h, null), mine, measure)) out.set(id, cap);
    }
  }
  return out;
}

/**
 * Whether posted documents of `target` have taken all, or some, of a source document: every line
 * taken up to what it holds, or any line taken at all. The one measure of "complete" that status
 * rules (followStatus) read.
 */
export async function processedState(k: Kysely<any>, service: EntityService, source: EntitySchema, target: EntitySchema, measure: string, sourceId: number): Promise<{ all: boolean; some: boolean }> {
  const caps = await lineCapacities(k, service, source, measure, [sourceId]);
  const done = await doneOf(k, source.name, target.name, [...caps.keys()]);
  const ids = [...caps.keys()];
  return {
    all: ids.length > 0 && ids.every((id) => (done.get(id) ?? 0) >= caps.get(id)!),
    some: ids.some((id) => (done.get(id) ?? 0) > 0),
  };
}
