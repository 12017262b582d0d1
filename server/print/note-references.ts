import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { documentDateField, documentNumber, etaxTypeOf, type EtaxSource } from '../../engine/etax/etax-document.ts';
import { parseDecimal, toNumber } from '../../engine/documents/decimal-value.ts';

type Row = Record<string, unknown>;

/** The document's own e-Tax type (a POS sale with a full tax invoice is T03, not its abbreviated T06). */
function typeOf(s: EntitySchema, r: Row): EtaxSource['references'][number]['typeCode'] {
  try { return etaxTypeOf(s, r); } catch { return s.document!.etax!.typeCode; }
}
/** What is read of a printed document (document-pdf.ts's DocumentPrint has these). */
interface NoteDocument { entity: EntitySchema; row: Row }

/**
 * The documents a note corrects: the sources (`document.from[]` entries that are e-Tax documents
 * themselves) of its lines' `source_line_id`, read as the system like the parties (the note names
 * them, whatever the caller may see of them); a line typed by hand names its invoice in `ref_doc`.
 */
export async function noteReferencesOf(service: EntityService, doc: NoteDocument): Promise<EtaxSource['references']> {
  const { entity, row } = doc;
  const linesField = entity.document?.lines;
  const lines = ((linesField ? row[linesField] : null) as Row[] | null) ?? [];
  const found = new Map<string, EtaxSource['references'][number]>();
  const add = (source: string, r: Row) => {
    const s = service.entity(source);
    const id = documentNumber(s, r);
    const dateField = documentDateField(s);
    if (id && dateField) found.set(`${source}:${id}`, { id, date: String(r[dateField]).slice(0, 10), typeCode: typeOf(s, r), amountBeforeVat: r.amount_before_vat ?? r.subtotal });
  };
  for (const from of entity.document?.from ?? []) {
    const source = service.registry.get(from.source);
    const sourceLines = source?.document?.lines ? source.fields[source.document.lines]?.entity : undefined;
    const lineEntity = sourceLines ? service.registry.get(sourceLines) : undefined;
    if (!source?.document?.etax || !lineEntity?.parent) continue;
    const ids = [...new Set(lines.map((l) => Number(l.source_line_id)).filter((n) => Number.isInteger(n) && n > 0))];
    const parents = ids.length
      ? await service.db.kysely.selectFrom(lineEntity.name).select(lineEntity.parent.field).where('id', 'in', ids).execute() as Row[]
      : [];
    for (const parentId of new Set(parents.map((p) => Number(p[lineEntity.parent!.field])))) {
      const r = await service.get(source.name, parentId, systemContext).catch(() => null);
      if (r) add(source.name, r);
    }
    // lines typed by hand: the invoice number they name
    const numberField = source.numbering?.field ?? source.titleField;
    for (const ref of new Set(lines.filter((l) => !l.source_line_id && l.ref_doc).map((l) => String(l.ref_doc)))) {
      const r = await service.db.kysely.selectFrom(source.name).select('id').where(numberField, '=', ref).executeTakeFirst() as Row | undefined;
      const full = r ? await service.get(source.name, Number(r.id), systemContext).catch(() => null) : null;
      if (full) add(source.name, full);
    }
  }
  // a link of the note to an e-Tax document it corrects that no line was made from (a POS sale's full tax invoice,
  // credited by its return: `pos_order_id`)
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'link' || !f.entity || row[name] === null || row[name] === undefined || row[name] === '') continue;
    const target = service.registry.get(f.entity);
    if (!target?.document?.etax || !documentDateField(target)) continue;
    const r = await service.get(target.name, Number(row[name]), systemContext).catch(() => null);
    if (r) add(target.name, r);
  }
  return [...found.values()];
}

/** The value of `document.etax.purposeField`: a link shows its display field, read as the system. */
export async function noteReasonOf(service: EntityService, doc: NoteDocument): Promise<string | null> {
  const name = doc.entity.document?.etax?.purposeField;
  const f = name ? doc.entity.fields[name] : undefined;
  const v = name ? doc.row[name] : null;
  if (!f || v === null || v === undefined || v === '') return null;
  if (f.type !== 'link' || !f.entity) return String(v);
  const r = await service.get(f.entity, Number(v), systemContext).catch(() => null);
  return r ? String(r[f.displayField ?? service.entity(f.entity).titleField] ?? '') || null : null;
}


/**
 * What s. 86/10 of the Revenue Code asks a debit or credit note to state besides its own lines: the tax
 * invoice(s) it corrects (number and date), their value, the correct value, the difference and its VAT,
 * and the reason. Values are before VAT, as the e-Tax XML states them (OriginalInformationAmount, …).
 */
export interface NotePrint {
  kind: 'debit' | 'credit';
  references: Array<{ number: string; date: string }>;
  original: number;
  correct: number;
  difference: number;
  vat: number;
  reason: string | null;
}

const satang = (v: unknown) => (v === null || v === undefined || v === '' ? 0n : parseDecimal(v as number | string, 2, 'amount'));

/** The note part of a debit (e-Tax type 80) or credit (81) note's print; null for other documents. */
export async function notePrintOf(service: EntityService, doc: NoteDocument): Promise<NotePrint | null> {
  const code = doc.entity.document?.etax?.typeCode;
  if (code !== '80' && code !== '81') return null;
  const refs = await noteReferencesOf(service, doc);
  const original = refs.reduce((a, r) => a + satang(r.amountBeforeVat), 0n);
  const difference = satang(doc.row.amount_before_vat ?? doc.row.subtotal);
  const correct = code === '81' ? original - difference : original + difference;
  return {
    kind: code === '81' ? 'credit' : 'debit',
    references: refs.map((r) => ({ number: r.id, date: r.date })),
    original: toNumber(original), correct: toNumber(correct), difference: toNumber(difference), vat: toNumber(satang(doc.row.vat_amount)),
    reason: await noteReasonOf(service, doc),
  };
}
