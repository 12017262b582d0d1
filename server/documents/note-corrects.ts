import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { inBatches } from '../db/batches.ts';
import { linesOf } from './document-lines.ts';

type Row = Record<string, unknown>;

/**
 * Schema key `document.corrects` on the server: a credit or debit note corrects one issued tax invoice
 * (Revenue Code s. 86/9, 86/10). At its post action every line must come from that invoice (made from it, so
 * the posting also holds the note to what is left of the invoice), all lines from the same one; its id is then
 * stored in `corrects.field`. A note typed by hand, or one mixing two invoices, is refused with
 * 409 NOTE_WITHOUT_INVOICE and nothing is written. docs/documents.md, "A credit note corrects an invoice".
 */
export function installNoteCorrects(service: EntityService): void {
  service.onAction(async (trx, e) => {
    const d = e.entity.document!;
    if (e.action !== (d.postAction ?? 'approve')) return;
    const field = d.corrects!.field;
    const lines = linesOf(service, e.entity);
    const rows = (e.after[lines.field] as Row[] | undefined) ?? [];
    const from = d.from ?? [];
    const typed = rows.findIndex((l) => l.source_line_id === null || l.source_line_id === undefined);
    if (!rows.length || typed >= 0 || !from.length) {
      throw new AppError('NOTE_WITHOUT_INVOICE', `a ${e.entity.label.en} corrects an issued ${from.map((f) => f.source).join(' or ')}: make it from one (line ${typed + 1} names none)`, { line: typed + 1 }, { reason: 'none', entity: e.entity.label });
    }
    const heads = new Set<string>();
    for (const spec of from) {
      const src = linesOf(service, service.entity(spec.source));
      const ids = rows.filter((l) => from.length === 1 || l.source_entity === spec.source).map((l) => Number(l.source_line_id));
      for (const batch of inBatches(ids, 1)) {
        for (const r of await trx.selectFrom(src.entity.name).select(src.parentField).where('id', 'in', batch).execute()) heads.add(`${spec.source}:${r[src.parentField]}`);
      }
    }
    if (heads.size !== 1) {
      throw new AppError('NOTE_WITHOUT_INVOICE', `a ${e.entity.label.en} corrects one tax invoice; its lines come from ${heads.size}`, { count: heads.size }, { reason: 'several', entity: e.entity.label, count: heads.size });
    }
    const id = Number([...heads][0]!.split(':')[1]);
    await trx.updateTable(e.entity.name).set({ [field]: id }).where('id', '=', e.id).execute();
    e.after[field] = id;
    e.recordWritten = true;
  }, (entity) => !!entity.document?.corrects);
}
