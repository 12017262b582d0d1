import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';
import type { DocumentPrint } from '../print/document-pdf.ts';
import { AppError } from '../errors/app-error.ts';
import { etaxDocumentOf, EtaxUnavailable, type EtaxDocument } from '../../engine/etax/etax-document.ts';
import { noteReasonOf, noteReferencesOf } from '../print/note-references.ts';
import { cancelledState } from '../documents/cancel-guard.ts';
import { businessIsoTime } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';

type Row = Record<string, unknown>;

/**
 * The e-Tax description of a document the caller has read (print-routes readDocument): the cancellation
 * note (T07) when asked for one of a cancelled document. Unsupported types answer 404 ETAX_NOT_SUPPORTED,
 * documents missing what the standard needs 409 ETAX_INCOMPLETE, each with a Thai message.
 */
export async function etaxDocumentFor(service: EntityService, doc: DocumentPrint, cancellation: boolean): Promise<EtaxDocument> {
  const { entity, row } = doc;
  const { party, issuer } = doc.parties;
  const products = new Map<number, Row>();
  for (const [key, map] of Object.entries(doc.lineLinks ?? {})) if (key.endsWith('.product_id')) for (const [id, r] of map) products.set(id, r);
  try {
    const cancelled = cancelledState(entity);
    if (cancellation && (!cancelled || row[entity.workflow?.field ?? 'status'] !== cancelled)) {
      throw new EtaxUnavailable('incomplete', `${entity.label.th}นี้ยังไม่ได้ถูกยกเลิก จึงยังออกใบแจ้งยกเลิกไม่ได้`, `This ${entity.label.en} is not cancelled, so it has no cancellation note`);
    }
    return etaxDocumentOf({
      entity, row, products, now: businessIsoTime(businessClock.now(), businessClock.timeZone),
      company: issuer ? doc.links[issuer] ?? null : null,
      customer: party ? doc.links[party] ?? null : null,
      // the documents a note corrects (the mapping keeps references for notes only)
      references: cancellation || !['80', '81'].includes(entity.document?.etax?.typeCode ?? '') ? [] : await noteReferencesOf(service, doc),
      reason: await noteReasonOf(service, doc),
      taxInvoiceMode: doc.taxInvoiceMode,
    }, cancellation);
  } catch (err) {
    if (!(err instanceof EtaxUnavailable)) throw err;
    throw new AppError(err.kind === 'not_supported' ? 'ETAX_NOT_SUPPORTED' : 'ETAX_INCOMPLETE', err.message, undefined, { why: { th: err.th, en: err.message } });
  }
}
