import type { Kysely } from 'kysely';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { toNumber } from '../../engine/documents/decimal-value.ts';
import { vatOfPart } from '../../engine/documents/part-remainder.ts';
import type { ActionEvent, EntityService } from '../crud/entity-service.ts';
import { linesOf } from './document-lines.ts';

/**
 * A note correcting a tax invoice by amount (a credit note, `document.corrects`, measured by amount) reverses the
 * invoice's VAT in proportion to what it credits, and the note that credits the last of the invoice takes exactly
 * the VAT its earlier notes left (issue 44 §9): three notes of 356.67, 356.67 and 356.66 on an invoice of 1,000.00
 * + 70.00 reverse 23.33, 23.34 and 23.33, not 23.33 three times. The amounts the lines give stay as they are; the
 * satang move between the amount before VAT and the VAT, held in `vat_adjustment` (the field's presence on the
 * note is the declaration) so the engine's totals of the stored record agree (engine/documents/document-totals.ts).
 * Runs at the note's posting, after its links are written.
 */
export async function settleNoteVat(trx: Kysely<any>, service: EntityService, e: ActionEvent, touched: Map<DocumentSource, Set<number>>): Promise<void> {
  const target = e.entity;
  if (!target.document?.corrects || !target.document.byAmount || !fieldOf(target, 'vat_adjustment')) return;
  const sources = [...touched].flatMap(([spec, ids]) => [...ids].map((id) => ({ spec, id })));
  if (sources.length !== 1 || (sources[0]!.spec.measure ?? 'qty') !== 'amount') return;
  const { spec, id } = sources[0]!;
  const source = service.entity(spec.source);
  if (!fieldOf(source, 'vat_amount') || !fieldOf(source, 'total_amount')) return;
  const tLines = linesOf(service, target);
  const sLines = linesOf(service, source);
  // what every posted note of this kind credited of the invoice, this one included (a cancelled one's links are gone);
  // money is stored as whole satang, so these sums are exact
  const links = await trx.selectFrom('document_link as l')
    .innerJoin(`${tLines.entity.name} as tl`, 'tl.id', 'l.target_line_id')
    .innerJoin(`${sLines.entity.name} as sl`, 'sl.id', 'l.source_line_id')
    .select([`tl.${tLines.parentField} as doc`, 'l.amount as amount'])
    .where('l.target_entity', '=', target.name).where('l.source_entity', '=', source.name).where(`sl.${sLines.parentField}`, '=', id)
    .execute();
  let before = 0n;
  let mine = 0n;
  const others = new Set<number>();
  for (const r of links) {
    const amount = BigInt(Number(r.amount ?? 0));
    if (Number(r.doc) === e.id) mine += amount;
    else { before += amount; others.add(Number(r.doc)); }
  }
  if (mine === 0n) return;
  const earlier = others.size
    ? (await trx.selectFrom(target.name).select('vat_amount').where('id', 'in', [...others]).execute()).reduce((s, r) => s + BigInt(Number(r.vat_amount ?? 0)), 0n)
    : 0n;
  const head = await trx.selectFrom(source.name).select(['total_amount', 'vat_amount']).where('id', '=', id).executeTakeFirstOrThrow();
  const vat = vatOfPart(BigInt(Number(head.vat_amount ?? 0)), BigInt(Number(head.total_amount ?? 0)), before, mine, earlier);
  const row = await trx.selectFrom(target.name).select(['vat_amount', 'amount_before_vat', 'total_amount', 'vat_adjustment']).where('id', '=', e.id).executeTakeFirstOrThrow();
  const own = BigInt(Number(row.vat_amount ?? 0));
  const shift = vat - own;
  // nothing to move, or a VAT the note's own total cannot hold (an invoice changed by hand): left as the lines give it
  if (shift === 0n || vat < 0n || vat > BigInt(Number(row.total_amount ?? 0))) return;
  const set = {
    vat_adjustment: Number(row.vat_adjustment ?? 0) + Number(shift),
    vat_amount: Number(vat),
    amount_before_vat: Number(row.amount_before_vat ?? 0) - Number(shift),
  };
  await trx.updateTable(target.name).set(set).where('id', '=', e.id).execute();
  e.recordWritten = true;
  for (const [field, satang] of Object.entries(set)) e.after[field] = toNumber(BigInt(satang), 2);
}
