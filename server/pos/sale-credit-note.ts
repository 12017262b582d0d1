import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SaleSpec } from '../../engine/schema/document-spec-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { encodeColumns } from '../crud/record-values.ts';
import { nextNumber } from '../crud/numbering-series.ts';
import { unscale } from '../db/field-codec.ts';
import { linesOf } from '../documents/document-lines.ts';
import { AppError } from '../errors/app-error.ts';

type Row = Record<string, unknown>;

/** The invoice form whose returns need a credit note: a full tax invoice (an abbreviated one's returns net, s. 86/10 asks no note of it). */
const FULL = 'full';

/** What the sale's return gives back: per sale line its quantity and worth (satang), and the whole with its VAT. */
export interface ReturnedPart { lines: Array<{ line: Row; qty: bigint; amount: bigint }>; amount: bigint; vat: bigint; reason: string | null; date: string }

/** The note entity a sale entity's returns issue, or null (`document.sale.creditNote`). */
export function creditNoteOf(service: EntityService, sale: EntitySchema): { entity: EntitySchema; field: string } | null {
  const spec = (sale.document?.sale as SaleSpec | undefined)?.creditNote;
  return spec ? { entity: service.entity(spec.entity), field: spec.field } : null;
}

/** The state a note is in once issued, and the state its cancellation moves it to (its workflow's post and cancel actions). */
function statesOf(note: EntitySchema): { issued: string; cancelled: string } {
  const flow = note.workflow!;
  const to = (action: string) => flow.transitions.find((t) => t.action === action)!.to;
  return { issued: to(note.document!.postAction ?? 'approve'), cancelled: to(note.document!.cancelAction ?? 'cancel') };
}

/**
 * Issues the credit note (ใบลดหนี้, Revenue Code s. 86/10) of a partial return of a sale that carries a full tax
 * invoice, in the return's transaction: the existing credit note document, issued at once, dated the day of the
 * return (a note reduces output tax in the month it is issued), numbered in the notes' own series, linked to the
 * sale (whose `tax_invoice_no` is the invoice it corrects), one line per sale line returned with its worth, VAT
 * included at the sale's rate and the VAT exactly what the return gave back (`vat_adjustment` holds the satang
 * the lines' own arithmetic would put elsewhere). It is written here rather than by the note's issue action: the
 * return's own entry (`document.journal.returns`) books the money and the VAT, so the note must post nothing (its
 * journal variant holds only without the sale link) and needs no invoice lines to come from (`document.corrects`).
 * The sale's `credited_amount` / `credited_vat` grow by the note, so the sales tax report stops netting this
 * return from the invoice and lists the note instead. Answers the note, or null when the sale needs none.
 */
export async function issueReturnNote(trx: Kysely<any>, service: EntityService, sale: EntitySchema, order: Row, part: ReturnedPart, ctx: RequestContext): Promise<Row | null> {
  const spec = creditNoteOf(service, sale);
  if (!spec || order.invoice_type !== FULL || part.amount <= 0n) return null;
  const note = spec.entity;
  const lines = linesOf(service, note);
  const baht = (satang: bigint) => unscale(Number(satang), 2);
  const vatRate = Number(order.vat_rate ?? 0) / 100;
  // what the lines would carry as VAT (include: rate / (100 + rate) of the total) against what the return gave back
  const ownVat = BigInt(Math.round(Number(part.amount) * vatRate / (100 + vatRate)));
  const items = part.lines.filter((l) => l.amount > 0n).map((l, i) => ({
    line_no: i + 1,
    description: `${String(l.line.description ?? '')} × ${unscale(Number(l.qty), 4)}`.slice(0, 200),
    ref_doc: String(order.tax_invoice_no ?? ''),
    amount: baht(l.amount),
  }));
  const reason = part.reason ? `รับคืนสินค้า: ${part.reason}` : 'รับคืนสินค้า';
  const header: Row = {
    doc_date: part.date, your_company_id: order.your_company_id, [spec.field]: order.id, vat_type: 'include', vat_rate: vatRate,
    subtotal: baht(part.amount), amount_before_vat: baht(part.amount - part.vat), vat_amount: baht(part.vat),
    vat_adjustment: baht(part.vat - ownVat), total_amount: baht(part.amount), status: statesOf(note).issued,
    remark: `${reason} (ใบกำกับภาษีเลขที่ ${String(order.tax_invoice_no ?? '')})`,
  };
  if (note.numbering) header[note.numbering.field] = await nextNumber(trx, note, header);
  const now = new Date().toISOString();
  const stamp = { created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId };
  const inserted = await trx.insertInto(note.name).values({ ...encodeColumns(note, header), ...stamp }).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  if (items.length) await trx.insertInto(lines.entity.name).values(items.map((it) => ({ ...encodeColumns(lines.entity, it), [lines.parentField]: id, line_no: it.line_no, ...stamp }))).execute();
  const created = await service.readWhole(trx, note.name, id);
  // audited as the note's creation, in the cashier's name (with the supervisor's approval logged by the route)
  await service.recordCreate(trx, note.name, id, created, ctx);
  await trx.updateTable(sale.name).set({
    credited_amount: Number(order.credited_amount ?? 0) + Number(part.amount), credited_vat: Number(order.credited_vat ?? 0) + Number(part.vat),
  }).where('id', '=', Number(order.id)).execute();
  return created;
}

/**
 * A sale refunded whole (its void, or a return of everything left) is out of the sales tax report altogether, so
 * the notes its earlier returns issued are cancelled with it (they post nothing, so no entry is reversed);
 * each is audited as an update.
 */
export async function cancelReturnNotes(trx: Kysely<any>, service: EntityService, sale: EntitySchema, saleId: number, ctx: RequestContext): Promise<void> {
  const spec = creditNoteOf(service, sale);
  if (!spec) return;
  const { issued, cancelled } = statesOf(spec.entity);
  const field = spec.entity.workflow!.field;
  const notes = await trx.selectFrom(spec.entity.name).select('id').where(spec.field, '=', saleId).where(field, '=', issued).execute();
  for (const n of notes) {
    const id = Number(n.id);
    const before = await service.readWhole(trx, spec.entity.name, id);
    await trx.updateTable(spec.entity.name).set({ [field]: cancelled, updated_at: new Date().toISOString(), updated_by: ctx.userId }).where('id', '=', id).execute();
    await service.recordUpdate(trx, spec.entity.name, id, before, await service.readWhole(trx, spec.entity.name, id), ctx, spec.entity.document!.cancelAction ?? 'cancel');
  }
}

/**
 * The notes follow their sale: the sale's void (its cancel action, also what a return of everything left runs)
 * cancels them; a note issued by a return cannot be cancelled on its own while its sale stands (the return's money
 * and entry would stay without their tax document), 409 INVALID_TRANSITION.
 */
export function installReturnNotes(service: EntityService): void {
  const sales = () => (service.registry.all() as EntitySchema[]).filter((e) => creditNoteOf(service, e));
  service.onAction(async (trx, e) => {
    if (e.action === (e.entity.document!.cancelAction ?? 'cancel')) await cancelReturnNotes(trx, service, e.entity, e.id, e.ctx);
  }, (entity) => Boolean((entity.document?.sale as SaleSpec | undefined)?.creditNote));
  service.onAction(async (_trx, e) => {
    if (e.action !== (e.entity.document!.cancelAction ?? 'cancel')) return;
    const sale = sales().find((s) => creditNoteOf(service, s)!.entity.name === e.entity.name);
    const field = sale && creditNoteOf(service, sale)!.field;
    if (field && e.before[field] !== null && e.before[field] !== undefined) {
      throw new AppError('INVALID_TRANSITION', `This ${e.entity.label.en} was issued by a return of a point-of-sale sale: it is cancelled with the sale's void, not on its own`);
    }
  }, (entity) => sales().some((s) => creditNoteOf(service, s)!.entity.name === entity.name));
}
