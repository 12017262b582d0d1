import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import { renderLabelsPdf, type LabelRow, type Symbology } from './barcode-labels.ts';
import { parseScanBody, scanDocuments, scanInto, scanView } from './barcode-scan.ts';

const MAX_LABELS = 500;

function idOf(raw: string): number {
  const id = parseRecordId(raw);
  if (id === null) throw new AppError('NOT_FOUND', `"${raw}" is not a record id`);
  return id;
}

/**
 * Unique pack barcodes (codes from the site's format, labels as PDF), the
 * scan endpoints of goods receipts and delivery orders. What posting does to
 * the packs scanned into them is scan-posting.ts; new codes, barcode-codes.ts.
 */
export function registerBarcodeRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  // the packs' entity (`"holds": "packBarcodes"`) and the products its product_id links to
  const packs = service.registry.held('packBarcodes');
  const products = service.registry.heldLink('packBarcodes', 'product_id');
  app.post(`/api/${packs}/generate`, async (request, reply) => {
    const b = (request.body ?? {}) as Record<string, unknown>;
    const count = Number(b.count ?? 1);
    if (!Number.isInteger(count) || count < 1 || count > MAX_LABELS) {
      throw new AppError('VALIDATION_FAILED', `count: must be a whole number from 1 to ${MAX_LABELS}`, { fields: [{ field: 'count', code: 'maximum', message: `must be 1 to ${MAX_LABELS}`, params: { limit: MAX_LABELS } }] });
    }
    const { count: _c, ...row } = b;
    const data = await service.createMany(packs, Array.from({ length: count }, () => ({ ...row })), contextOf(request));
    return reply.status(201).send({ success: true, data });
  });

  app.get(`/api/${packs}/labels.pdf`, async (request, reply) => {
    const ctx = contextOf(request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const symbology = (query.symbology ?? 'code128') as Symbology;
    if (symbology !== 'code128' && symbology !== 'qrcode') throw new AppError('INVALID_QUERY', '"symbology" must be code128 or qrcode');
    const ids = String(query.ids ?? '').split(',').filter(Boolean).map((s) => parseRecordId(s.trim()));
    if (!ids.length || ids.length > MAX_LABELS || ids.some((i) => i === null)) throw new AppError('INVALID_QUERY', `"ids" must be 1 to ${MAX_LABELS} barcode ids, comma-separated`);
    const entity = service.entity(packs);
    const rows: LabelRow[] = [];
    for (const id of ids as number[]) {
      const r = await service.get(packs, id, ctx);
      if (!r.code) throw new AppError('VALIDATION_FAILED', `barcode ${id} has no code yet`);
      const product = await service.db.kysely.selectFrom(products).select(['code', 'name_th']).where('id', '=', Number(r.product_id)).executeTakeFirst();
      rows.push({ code: String(r.code), product: product ? `${product.code} ${product.name_th}` : String(r.product_id), lot_no: (r.lot_no as string | null) ?? null, expiry_date: (r.expiry_date as string | null) ?? null, pack_qty: Number(r.pack_qty), unit: (r.unit as string | null) ?? null });
    }
    service.policy.assertAllowed(ctx, entity, 'print');
    const pdf = await renderLabelsPdf(rows, symbology);
    await service.db.kysely.updateTable(packs).set({ print_count: sql`coalesce(print_count, 0) + 1` }).where('id', 'in', ids as number[]).execute();
    return reply.header('content-type', 'application/pdf').header('content-disposition', `inline; filename="barcodes-${ids.length}.pdf"`).send(pdf);
  });

  for (const name of scanDocuments(service.registry)) {
    app.post<{ Params: { id: string } }>(`/api/${name}/:id/scan`, async (request) => {
      const data = await scanInto(service, name, idOf(request.params.id), parseScanBody(request.body), contextOf(request));
      return { success: true, data };
    });
    app.get<{ Params: { id: string } }>(`/api/${name}/:id/scan`, async (request) => ({ success: true, data: await scanView(service, name, idOf(request.params.id), contextOf(request)) }));
  }
}
