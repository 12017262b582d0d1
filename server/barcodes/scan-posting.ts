import { sql } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';
import { scanDocumentOf } from './barcode-scan.ts';

/**
 * What posting does to the packs scanned into a document (received, delivered;
 * back on cancel), and the scanned quantities a save of its lines keeps. Both
 * listeners declare the documents they apply to (those with `document.scan`
 * whose lines are a child entity), rather than deciding inside their body.
 */
export function installScanPosting(service: EntityService): void {
  const scanned = (entity: Parameters<typeof scanDocumentOf>[0]) => !!scanDocumentOf(entity, service.registry);
  service.onAction(async (trx, e) => {
    const spec = scanDocumentOf(e.entity, service.registry)!;
    const receipt = spec.direction === 'in';
    // the pack records the document it was posted with, where barcodes has a column for it (packField)
    const link = (value: number | null) => (spec.packField ? { [spec.packField]: value } : {});
    const scanned = trx.selectFrom('document_scan').select('barcode_id').where('doc_entity', '=', e.entity.name).where('doc_id', '=', e.id).where('barcode_id', 'is not', null);
    const now = new Date().toISOString();
    if (e.action === 'approve') {
      const set = receipt ? { status: 'received', inventory_id: e.after[spec.inventory] ?? null, ...link(e.id) } : { status: 'delivered', ...link(e.id) };
      await trx.updateTable(service.registry.held('packBarcodes')).set({ ...set, updated_at: now }).where('id', 'in', scanned).execute();
    } else if (e.action === 'cancel' && e.before.status === 'approved') {
      const set = receipt ? { status: 'printed', inventory_id: null, ...link(null) } : { status: 'received', ...link(null) };
      await trx.updateTable(service.registry.held('packBarcodes')).set({ ...set, updated_at: now }).where((eb) => (spec.packField ? eb(spec.packField, '=', e.id) : eb('id', 'in', scanned))).execute();
    }
  }, scanned);

  // is_auto_scan_gr: a goods receipt counts as scanned in full; scanning it then only finds over-scans.
  // A draft whose lines are saved again keeps what was scanned on them (the scan log is the record).
  service.onWrite(async (trx, e) => {
    if (!e.after || (e.action !== 'create' && e.action !== 'update')) return;
    const spec = scanDocumentOf(service.registry.get(e.entity), service.registry)!;
    const auto = !!spec.autoScanSetting && flagOn(await siteSettings(trx, service.registry), spec.autoScanSetting);
    if (auto) {
      await trx.updateTable(spec.lines).set({ scanned_qty: sql`qty` }).where(spec.parent, '=', e.id).execute();
    } else if (e.action === 'update' && !e.workflowAction) {
      const logged = trx.selectFrom('document_scan as s').select(sql`coalesce(sum(s.qty), 0)`.as('q')).where('s.doc_entity', '=', e.entity).whereRef('s.line_id', '=', `${spec.lines}.id`);
      await trx.updateTable(spec.lines).set({ scanned_qty: logged as never }).where(spec.parent, '=', e.id).execute();
    } else {
      return;
    }
    const rows = await trx.selectFrom(spec.lines).select(['id', 'scanned_qty']).where(spec.parent, '=', e.id).execute();
    const by = new Map(rows.map((r) => [Number(r.id), Number(r.scanned_qty ?? 0) / 10_000]));
    for (const l of (e.after.items as Record<string, unknown>[] | undefined) ?? []) l.scanned_qty = by.get(Number(l.id)) ?? 0;
  }, scanned);
}
