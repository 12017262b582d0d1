import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';
import { installBarcodeCodes } from './barcode-codes.ts';
import { renderLabelsPdf, type LabelRow, type Symbology } from './barcode-labels.ts';
import { parseScanBody, scanDocumentOf, scanDocuments, scanInto, scanView } from './barcode-scan.ts';

const MAX_LABELS = 500;

function idOf(raw: string): number {
  const id = parseRecordId(raw);
  if (id === null) throw new AppError('NOT_FOUND', `"${raw}" is not a record id`);
  return id;
}

/**
 * Unique pack barcodes (codes from the site's format, labels as PDF), the
 * scan endpoints of goods receipts and delivery orders, and what posting does
 * to the packs scanned into them (received, delivered; back on cancel).
 */
export function installBarcodes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  installBarcodeCodes(service);

  app.post('/api/barcodes/generate', async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, unknown>;
    const count = Number(b.count ?? 1);
    if (!Number.isInteger(count) || count < 1 || count > MAX_LABELS) {
      throw new AppError('VALIDATION_FAILED', `count: must be a whole number from 1 to ${MAX_LABELS}`, { fields: [{ field: 'count', code: 'maximum', message: `must be 1 to ${MAX_LABELS}`, params: { limit: MAX_LABELS } }] });
    }
    const { count: _c, ...row } = b;
    const data = await service.createMany('barcodes', Array.from({ length: count }, () => ({ ...row })), contextOf(request));
    return reply.status(201).send({ success: true, data });
  });

  app.get('/api/barcodes/labels.pdf', async (request, reply) => {
    const ctx = contextOf(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const symbology = (query.symbology ?? 'code128') as Symbology;
    if (symbology !== 'code128' && symbology !== 'qrcode') throw new AppError('INVALID_QUERY', '"symbology" must be code128 or qrcode');
    const ids = String(query.ids ?? '').split(',').filter(Boolean).map((s) => parseRecordId(s.trim()));
    if (!ids.length || ids.length > MAX_LABELS || ids.some((i) => i === null)) throw new AppError('INVALID_QUERY', `"ids" must be 1 to ${MAX_LABELS} barcode ids, comma-separated`);
    const entity = service.entity('barcodes');
    const rows: LabelRow[] = [];
    for (const id of ids as number[]) {
      const r = await service.get('barcodes', id, ctx);
      if (!r.code) throw new AppError('VALIDATION_FAILED', `barcode ${id} has no code yet`);
      const product = await service.db.kysely.selectFrom('product').select(['code', 'name_th']).where('id', '=', Number(r.product_id)).executeTakeFirst();
      rows.push({ code: String(r.code), product: product ? `${product.code} ${product.name_th}` : String(r.product_id), lot_no: (r.lot_no as string | null) ?? null, expiry_date: (r.expiry_date as string | null) ?? null, pack_qty: Number(r.pack_qty), unit: (r.unit as string | null) ?? null });
    }
    service.policy.assertAllowed(ctx, entity, 'print');
    const pdf = await renderLabelsPdf(rows, symbology);
    await service.db.kysely.updateTable('barcodes').set({ print_count: sql`coalesce(print_count, 0) + 1` }).where('id', 'in', ids as number[]).execute();
    return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="barcodes-${ids.length}.pdf"`).send(pdf);
  });

  for (const name of scanDocuments(service.registry)) {
    app.post<{ Params: { id: string } }>(`/api/${name}/:id/scan`, async (request) => {
      const data = await scanInto(service, name, idOf(request.params.id), parseScanBody(request.body), contextOf(request));
      return { success: true, data };
    });
    app.get<{ Params: { id: string } }>(`/api/${name}/:id/scan`, async (request) => ({ success: true, data: await scanView(service, name, idOf(request.params.id), contextOf(request)) }));
  }

  service.onAction(async (trx, e) => {
    const spec = scanDocumentOf(e.entity, service.registry);
    if (!spec) return;
    const receipt = spec.direction === 'in';
    // the pack records the document it was posted with, where barcodes has a column for it (packField)
    const link = (value: number | null) => (spec.packField ? { [spec.packField]: value } : {});
    const scanned = trx.selectFrom('document_scan').select('barcode_id').where('doc_entity', '=', e.entity.name).where('doc_id', '=', e.id).where('barcode_id', 'is not', null);
    const now = new Date().toISOString();
    if (e.action === 'approve') {
      const set = receipt ? { status: 'received', inventory_id: e.after[spec.inventory] ?? null, ...link(e.id) } : { status: 'delivered', ...link(e.id) };
      await trx.updateTable('barcodes').set({ ...set, updated_at: now }).where('id', 'in', scanned).execute();
    } else if (e.action === 'cancel' && e.before.status === 'approved') {
      const set = receipt ? { status: 'printed', inventory_id: null, ...link(null) } : { status: 'received', ...link(null) };
      await trx.updateTable('barcodes').set({ ...set, updated_at: now }).where((eb) => (spec.packField ? eb(spec.packField, '=', e.id) : eb('id', 'in', scanned))).execute();
    }
  });

  // is_auto_scan_gr: a goods receipt counts as scanned in full; scanning it then only finds over-scans.
  // A draft whose lines are saved again keeps what was scanned on them (the scan log is the record).
  service.onWrite(async (trx, e) => {
    const spec = e.after && (e.action === 'create' || e.action === 'update') ? scanDocumentOf(service.registry.get(e.entity), service.registry) : null;
    if (!spec || !e.after) return;
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
  });
}
