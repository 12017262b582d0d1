import { sql, type Kysely } from 'kysely';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { QTY_SCALE } from '../stock/stock-ledger.ts';
import { dateText } from '../stock/stock-documents.ts';
import { flagOn, siteSettings, type SiteSettings } from '../settings/site-settings.ts';
import { scansOf } from './scan-log.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { ScanSpec } from '../../engine/schema/stock-spec-types.ts';

type Row = Record<string, unknown>;

/**
 * The documents scanned into are those whose schema declares `document.scan`
 * (engine/schema/stock-spec-types.ts, ScanSpec): their line table and parent column
 * come from the document's lines field, the inventory from `document.stock`.
 */
export interface ScanDocument extends ScanSpec { lines: string; parent: string; inventory: string }
export function scanDocumentOf(entity: EntitySchema | undefined, registry: SchemaRegistry): ScanDocument | null {
  const spec = entity?.kind === 'document' ? entity.document?.scan : undefined;
  const linesField = spec && entity!.document?.lines ? entity!.fields[entity!.document.lines] : undefined;
  const child = linesField?.entity ? registry.get(linesField.entity) : undefined;
  if (!spec || !child?.parent) return null;
  return { ...spec, lines: child.name, parent: child.parent.field, inventory: entity!.document?.stock?.inventory ?? 'inventory_id' };
}
export const scanDocuments = (registry: SchemaRegistry): string[] => registry.all().filter((e) => scanDocumentOf(e, registry)).map((e) => e.name);

export interface ScanInput { code: string; note: string | null }

const refused = (reason: string, message: string, details: Row = {}) => new AppError('SCAN_REFUSED', message, details, { reason });
const q = (scaled: number) => Number((scaled / QTY_SCALE).toFixed(4));

export function parseScanBody(body: unknown): ScanInput {
  const b = (body ?? {}) as Row;
  const code = typeof b.code === 'string' ? b.code.trim() : '';
  const bad = (field: string, message: string) => new AppError('VALIDATION_FAILED', `${field}: ${message}`, { fields: [{ field, code: 'invalid', message }] });
  if (!code || code.length > 100) throw bad('code', 'must be the scanned text, 1 to 100 characters');
  if (b.note !== undefined && b.note !== null && (typeof b.note !== 'string' || b.note.length > 500)) throw bad('note', 'must be text of at most 500 characters');
  return { code, note: typeof b.note === 'string' && b.note.trim() ? b.note.trim() : null };
}

interface Scanned { barcodeId: number | null; productId: number; lotNo: string | null; expiryDate: string | null; qty: number }

/** The tables a scan reads and writes, found through the schemas (`holds`): the packs, the products they link to, the over-scans. */
interface ScanTables { packs: string; products: string; overs: string }
const scanTables = (service: EntityService): ScanTables => ({
  packs: service.registry.held('packBarcodes'), products: service.registry.heldLink('packBarcodes', 'product_id'), overs: service.registry.held('scanOvers'),
});

/** What a code stands for: a unique pack barcode first, then a product's own barcode or code (one unit). */
async function resolve(k: Kysely<any>, tables: ScanTables, entity: string, spec: ScanDocument, code: string): Promise<Scanned> {
  const pack = await k.selectFrom(tables.packs).selectAll().where('code', '=', code).where('is_deleted', '=', 0).executeTakeFirst();
  if (pack) {
    const status = String(pack.status);
    if (spec.direction === 'in' && status !== 'printed') throw refused('already_used', `Barcode ${code} was already received`, { code, status });
    if (spec.direction === 'out' && status !== 'received') {
      throw refused('already_used', status === 'delivered' ? `Barcode ${code} was already delivered` : `Barcode ${code} has not been received into stock`, { code, status });
    }
    // one pack, one live document of each kind
    const live = await k.selectFrom('document_scan as s').innerJoin(`${entity} as d`, 'd.id', 's.doc_id')
      .select(['d.doc_no']).where('s.doc_entity', '=', entity).where('s.barcode_id', '=', Number(pack.id))
      .where('d.status', '!=', 'cancelled').where('d.is_deleted', '=', 0).executeTakeFirst();
    if (live) throw refused('already_used', `Barcode ${code} is already scanned into ${live.doc_no ?? 'another document'}`, { code, doc_no: live.doc_no ?? null });
    return { barcodeId: Number(pack.id), productId: Number(pack.product_id), lotNo: (pack.lot_no as string | null) || null, expiryDate: dateText(pack.expiry_date), qty: Number(pack.pack_qty) };
  }
  const product = await k.selectFrom(tables.products).select('id').where((eb) => eb.or([eb('barcode', '=', code), eb('code', '=', code)])).where('is_deleted', '=', 0).orderBy('id').executeTakeFirst();
  if (!product) throw refused('unknown_code', `No barcode or product has the code ${code}`, { code });
  return { barcodeId: null, productId: Number(product.id), lotNo: null, expiryDate: null, qty: QTY_SCALE };
}

/**
 * FEFO for deliveries (`scan_with_oldest_expire_product`): a pack is refused
 * while the inventory still holds the same product with an earlier expiry
 * that this document has not already taken by scanning.
 */
async function checkOldestFirst(k: Kysely<any>, entityName: string, spec: ScanDocument, doc: Row, s: Scanned, settings: SiteSettings): Promise<void> {
  const inventory = doc[spec.inventory];
  if (!flagOn(settings, 'scan_with_oldest_expire_product') || !s.expiryDate || inventory === null || inventory === undefined) return;
  const older = await k.selectFrom('stock_balance').select(['lot_no', 'expiry_date', 'qty'])
    .where('product_id', '=', s.productId).where('inventory_id', '=', Number(inventory))
    .where('qty', '>', 0).where('expiry_date', '!=', '').where('expiry_date', '<', s.expiryDate).orderBy('expiry_date').execute();
  if (!older.length) return;
  const taken = await k.selectFrom('document_scan').select(sql<number>`coalesce(sum(qty), 0)`.as('qty'))
    .where('doc_entity', '=', entityName).where('doc_id', '=', Number(doc.id)).where('product_id', '=', s.productId)
    .where('expiry_date', '<', s.expiryDate).executeTakeFirst();
  const left = older.reduce((n, r) => n + Number(r.qty), 0) - Number(taken?.qty ?? 0);
  if (left <= 0) return;
  const first = older[0]!;
  throw refused('older_lot', `Lot ${first.lot_no || '(none)'} expiring ${first.expiry_date} is still in stock (${q(left)} not yet taken); scan it before one expiring ${s.expiryDate}`, {
    product_id: s.productId, lot_no: first.lot_no || null, expiry_date: first.expiry_date, scanned_expiry_date: s.expiryDate,
  });
}

export interface ScanResult {
  result: 'counted' | 'added';
  line_id: number;
  product_id: number;
  qty: number;
  scanned_qty: number;
  wanted: number;
  barcode_id: number | null;
  note: string | null;
}

/**
 * One scan into a draft goods receipt or delivery order. The line's
 * `scanned_qty` grows with a conditional update (`… WHERE scanned_qty + q <= qty`),
 * so two scanners at once can never together count more than the line asks.
 * A scan beyond it is recorded in `barcodes_scan_over` and answered
 * SCAN_OVER: it is never silently accepted.
 */
export async function scanInto(service: EntityService, entityName: string, id: number, input: ScanInput, ctx: RequestContext): Promise<ScanResult> {
  const entity = service.entity(entityName);
  const spec = scanDocumentOf(entity, service.registry)!;
  const doc = await service.get(entityName, id, ctx);
  service.policy.assertAllowed(ctx, entity, 'update');
  if (doc.status !== 'draft') throw refused('not_draft', `${entity.label.en} ${doc.doc_no} is ${doc.status}; only a draft can be scanned into`, { status: doc.status });
  const k = service.db.kysely;
  const settings = await siteSettings(k, service.registry);
  const tables = scanTables(service);
  const s = await resolve(k, tables, entityName, spec, input.code);
  if (spec.direction === 'out') await checkOldestFirst(k, entityName, spec, doc, s, settings);
  const note = flagOn(settings, 'is_enable_scan_with_note') ? input.note : null;
  const now = new Date().toISOString();
  const outcome = await k.transaction().execute(async (trx) => {
    const lines = await trx.selectFrom(spec.lines).select(['id', 'product_id', 'lot_no', 'qty', 'scanned_qty', 'line_no'])
      .where(spec.parent, '=', id).orderBy('line_no').execute();
    const fits = (l: Row) => Number(l.product_id) === s.productId && (!l.lot_no || !s.lotNo || l.lot_no === s.lotNo);
    const candidates = lines.filter(fits);
    let line: Row | undefined = candidates.find((l) => Number(l.scanned_qty ?? 0) + s.qty <= Number(l.qty)) ?? candidates[0];
    let result: ScanResult['result'] = 'counted';
    if (!line) {
      // a product the document does not have: added as a new line only where the site lets scans choose products
      if (!flagOn(settings, 'is_enable_scan_select_product') || flagOn(settings, spec.displayOnlySetting)) {
        throw refused('not_in_document', `The product of ${input.code} is not on ${doc.doc_no}`, { code: input.code, product_id: s.productId });
      }
      const no = lines.reduce((n, l) => Math.max(n, Number(l.line_no ?? 0)), 0) + 1;
      const inserted = await trx.insertInto(spec.lines).values({
        [spec.parent]: id, line_no: no, product_id: s.productId, qty: s.qty, scanned_qty: s.qty, lot_no: s.lotNo, expiry_date: s.expiryDate,
        created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId,
      }).returning('id').executeTakeFirstOrThrow();
      line = { id: inserted.id, qty: s.qty, scanned_qty: 0 };
      result = 'added';
    } else {
      const updated = await trx.updateTable(spec.lines).set({ scanned_qty: sql`coalesce(scanned_qty, 0) + ${s.qty}`, updated_at: now, updated_by: ctx.userId })
        .where('id', '=', Number(line.id)).where(sql<boolean>`coalesce(scanned_qty, 0) + ${s.qty} <= qty`).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        const current = await trx.selectFrom(spec.lines).select(['qty', 'scanned_qty']).where('id', '=', Number(line.id)).executeTakeFirstOrThrow();
        const over = await trx.insertInto(tables.overs).values({
          scanned_at: now, doc_entity: entityName, doc_id: id, doc_no: doc.doc_no ?? null, code: input.code, product_id: s.productId,
          inventory_id: doc[spec.inventory] ?? null, qty: s.qty, wanted: Number(current.qty), scanned: Number(current.scanned_qty ?? 0), note,
          created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId,
        }).returning('id').executeTakeFirstOrThrow();
        return { over: { scan_over_id: Number(over.id), product_id: s.productId, line_id: Number(line.id), wanted: q(Number(current.qty)), scanned: q(Number(current.scanned_qty ?? 0)), asked: q(s.qty) } };
      }
    }
    const lineId = Number(line!.id);
    await trx.insertInto('document_scan').values({
      doc_entity: entityName, doc_id: id, line_id: lineId, barcode_id: s.barcodeId, code: input.code, product_id: s.productId,
      lot_no: s.lotNo, expiry_date: s.expiryDate, qty: s.qty, note, user_id: ctx.userId, scanned_at: now,
    }).execute();
    const after = await trx.selectFrom(spec.lines).select(['qty', 'scanned_qty']).where('id', '=', lineId).executeTakeFirstOrThrow();
    return { done: { result, line_id: lineId, product_id: s.productId, qty: q(s.qty), scanned_qty: q(Number(after.scanned_qty)), wanted: q(Number(after.qty)), barcode_id: s.barcodeId, note } };
  });
  if ('over' in outcome && outcome.over) {
    const o = outcome.over;
    const product = await k.selectFrom(tables.products).select(['code', 'name_th']).where('id', '=', o.product_id).executeTakeFirst();
    throw new AppError('SCAN_OVER', `${product?.code ?? o.product_id}: ${doc.doc_no} asks for ${o.wanted}, ${o.scanned} already scanned; ${o.asked} more would be over. Recorded as over-scan ${o.scan_over_id}`, o,
      { product: product ? `${product.code} ${product.name_th}` : String(o.product_id), wanted: o.wanted, scanned: o.scanned });
  }
  return (outcome as { done: ScanResult }).done;
}

/** What the scan screen shows: the lines (only the scanned ones when the site's display-only setting is on), the scans, the over-scans and the switches. */
export async function scanView(service: EntityService, entityName: string, id: number, ctx: RequestContext): Promise<Row> {
  const spec = scanDocumentOf(service.entity(entityName), service.registry)!;
  const doc = await service.get(entityName, id, ctx);
  const k = service.db.kysely;
  const settings = await siteSettings(k, service.registry);
  const displayOnly = flagOn(settings, spec.displayOnlySetting);
  const lines = ((doc.items as Row[] | undefined) ?? []).map((l) => ({
    line_id: Number(l.id), product_id: Number(l.product_id), lot_no: l.lot_no ?? null, wanted: Number(l.qty ?? 0), scanned: Number(l.scanned_qty ?? 0),
    state: Number(l.scanned_qty ?? 0) === 0 ? 'pending' : Number(l.scanned_qty) < Number(l.qty) ? 'partial' : 'done',
  }));
  const ids = [...new Set(lines.map((l) => l.product_id))];
  const tables = scanTables(service);
  const products = ids.length ? await k.selectFrom(tables.products).select(['id', 'code', 'name_th']).where('id', 'in', ids).execute() : [];
  const named = new Map(products.map((p) => [Number(p.id), p]));
  for (const l of lines as Row[]) { const p = named.get(Number(l.product_id)); l.product_code = p?.code ?? null; l.product_name = p?.name_th ?? null; }
  const scans = (await scansOf(k, entityName, id)).map((s) => ({ ...s, qty: q(s.qty) }));
  const overs = await k.selectFrom(tables.overs).select(['id', 'code', 'product_id', 'qty', 'wanted', 'scanned', 'note', 'scanned_at'])
    .where('doc_entity', '=', entityName).where('doc_id', '=', id).orderBy('id', 'desc').execute();
  return {
    doc_no: doc.doc_no, status: doc.status,
    // the entity of the packs scanned (their labels print at /api/{packs}/labels.pdf)
    packs: tables.packs,
    lines: displayOnly ? lines.filter((l) => l.scanned > 0) : lines,
    scans,
    over_scans: overs.map((o) => ({ ...o, id: Number(o.id), product_id: o.product_id === null ? null : Number(o.product_id), qty: q(Number(o.qty)), wanted: q(Number(o.wanted ?? 0)), scanned: q(Number(o.scanned ?? 0)), scanned_at: String(o.scanned_at) })),
    settings: {
      display_only_scanned: displayOnly,
      scan_with_note: flagOn(settings, 'is_enable_scan_with_note'),
      scan_select_product: flagOn(settings, 'is_enable_scan_select_product'),
      oldest_expiry_first: flagOn(settings, 'scan_with_oldest_expire_product'),
    },
  };
}
