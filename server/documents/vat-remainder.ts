import type { Kysely } from 'kysely';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { toNumber } from '../../engine/documents/decimal-value.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { linesOf } from './document-lines.ts';
import { processedState } from './line-capacity.ts';

/**
 * Documents that split a source by quantity each round their own VAT (a tax invoice's VAT is 7 % of
 * its own value), so with VAT excluded the parts can differ from the source's total by a satang or
 * two. The document whose posting takes the last of its source carries that remainder in
 * `vat_adjustment` (the field's presence on the target is the declaration), the same rule as a
 * discount's remainder on the last line: once the source is fully processed, the documents made
 * from it total the source exactly (docs/documents.md, "Carrying discounts").
 *
 * Only a document made from one source document is adjusted, and only by what rounding can explain
 * (at most a satang per document of the source): anything larger is not rounding and is left alone.
 */
export async function settleVatRemainder(trx: Kysely<any>, service: EntityService, e: ActionEvent, touched: Map<DocumentSource, Set<number>>): Promise<void> {
  const target = e.entity;
  // a tax invoice's VAT is its own rate × base, half-up (issue 44 §9): it never carries another document's remainder
  if (target.document?.taxInvoice) return;
  if (!fieldOf(target, 'vat_adjustment') || (e.after.vat_type ?? 'exclude') !== 'exclude') return;
  const sources = [...touched].flatMap(([spec, ids]) => [...ids].map((id) => ({ spec, id })));
  if (sources.length !== 1) return;
  const { spec, id } = sources[0]!;
  const source = service.entity(spec.source);
  if ((spec.measure ?? 'qty') !== 'qty' || !fieldOf(source, 'total_amount')) return;
  if (!(await processedState(trx, service, source, target, 'qty', id)).all) return;
  const tLines = linesOf(service, target);
  const sLines = linesOf(service, source);
  // the posted documents of this kind made from the source (a cancelled one's links are gone), this one included
  const kids = (await trx.selectFrom('document_link as l')
    .innerJoin(`${tLines.entity.name} as tl`, 'tl.id', 'l.target_line_id')
    .innerJoin(`${sLines.entity.name} as sl`, 'sl.id', 'l.source_line_id')
    .select(`tl.${tLines.parentField} as doc`).distinct()
    .where('l.target_entity', '=', target.name).where('l.source_entity', '=', source.name).where(`sl.${sLines.parentField}`, '=', id)
    .execute()).map((r) => Number(r.doc));
  if (kids.length < 2 || !kids.includes(e.id)) return;
  const rows = await trx.selectFrom(target.name).select(['id', 'total_amount', 'vat_amount', 'net_amount', 'vat_adjustment']).where('id', 'in', kids).execute();
  const head = await trx.selectFrom(source.name).select('total_amount').where('id', '=', id).executeTakeFirstOrThrow();
  // money is stored as whole satang, so these sums are exact
  const diff = Number(head.total_amount) - rows.reduce((s, r) => s + Number(r.total_amount), 0);
  if (diff === 0 || Math.abs(diff) > kids.length) return;
  const mine = rows.find((r) => Number(r.id) === e.id)!;
  const set = {
    vat_adjustment: Number(mine.vat_adjustment ?? 0) + diff,
    vat_amount: Number(mine.vat_amount) + diff,
    total_amount: Number(mine.total_amount) + diff,
    net_amount: Number(mine.net_amount) + diff,
  };
  await trx.updateTable(target.name).set(set).where('id', '=', e.id).execute();
  e.recordWritten = true;
  for (const [field, satang] of Object.entries(set)) e.after[field] = toNumber(BigInt(satang), 2);
}
