import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import type { DocumentPrint } from '../print/document-pdf.ts';
import { partyFields } from '../print/document-pdf.ts';
import { AppError } from '../errors/app-error.ts';
import { documentDateField, documentNumber, etaxDocumentOf, EtaxUnavailable, type EtaxDocument, type EtaxSource } from '../../engine/etax/etax-document.ts';
import { cancelledState } from '../documents/cancel-guard.ts';

type Row = Record<string, unknown>;

/**
 * The documents a note corrects: the sources (`document.from[]` entries that are e-Tax documents
 * themselves) of its lines' `source_line_id`, read as the system like the parties (the note names
 * them, whatever the caller may see of them); a line typed by hand names its invoice in `ref_doc`.
 */
async function referencesOf(service: EntityService, doc: DocumentPrint): Promise<EtaxSource['references']> {
  const { entity, row } = doc;
  const linesField = entity.document?.lines;
  const lines = ((linesField ? row[linesField] : null) as Row[] | null) ?? [];
  const found = new Map<string, EtaxSource['references'][number]>();
  const add = (source: string, r: Row) => {
    const s = service.entity(source);
    const id = documentNumber(s, r);
    const dateField = documentDateField(s);
    if (id && dateField) found.set(`${source}:${id}`, { id, date: String(r[dateField]).slice(0, 10), typeCode: s.document!.etax!.typeCode, amountBeforeVat: r.amount_before_vat ?? r.subtotal });
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
  return [...found.values()];
}

/** The value of `document.etax.purposeField`: a link shows its display field, read as the system. */
async function reasonOf(service: EntityService, doc: DocumentPrint): Promise<string | null> {
  const name = doc.entity.document?.etax?.purposeField;
  const f = name ? doc.entity.fields[name] : undefined;
  const v = name ? doc.row[name] : null;
  if (!f || v === null || v === undefined || v === '') return null;
  if (f.type !== 'link' || !f.entity) return String(v);
  const r = await service.get(f.entity, Number(v), systemContext).catch(() => null);
  return r ? String(r[f.displayField ?? service.entity(f.entity).titleField] ?? '') || null : null;
}

/**
 * The e-Tax description of a document the caller has read (print-routes readDocument): the cancellation
 * note (T07) when asked for one of a cancelled document. Unsupported types answer 404 ETAX_NOT_SUPPORTED,
 * documents missing what the standard needs 409 ETAX_INCOMPLETE, each with a Thai message.
 */
export async function etaxDocumentFor(service: EntityService, doc: DocumentPrint, cancellation: boolean): Promise<EtaxDocument> {
  const { entity, row } = doc;
  const { party, issuer } = partyFields(entity);
  const products = new Map<number, Row>();
  for (const [key, map] of Object.entries(doc.lineLinks ?? {})) if (key.endsWith('.product_id')) for (const [id, r] of map) products.set(id, r);
  try {
    const cancelled = cancelledState(entity);
    if (cancellation && (!cancelled || row[entity.workflow?.field ?? 'status'] !== cancelled)) {
      throw new EtaxUnavailable('incomplete', `${entity.label.th}นี้ยังไม่ได้ถูกยกเลิก จึงยังออกใบแจ้งยกเลิกไม่ได้`, `This ${entity.label.en} is not cancelled, so it has no cancellation note`);
    }
    return etaxDocumentOf({
      entity, row, products, now: new Date().toISOString(),
      company: issuer ? doc.links[issuer] ?? null : null,
      customer: party ? doc.links[party] ?? null : null,
      // the documents a note corrects (the mapping keeps references for notes only)
      references: cancellation || !['80', '81'].includes(entity.document?.etax?.typeCode ?? '') ? [] : await referencesOf(service, doc),
      reason: await reasonOf(service, doc),
      taxInvoiceMode: doc.taxInvoiceMode,
    }, cancellation);
  } catch (err) {
    if (!(err instanceof EtaxUnavailable)) throw err;
    throw new AppError(err.kind === 'not_supported' ? 'ETAX_NOT_SUPPORTED' : 'ETAX_INCOMPLETE', err.message, undefined, { why: { th: err.th, en: err.message } });
  }
}
