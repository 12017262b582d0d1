import type { Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { generatedKey } from '../db/dialect-sql.ts';

/**
 * Every accepted scan, one row each: which document and line it counted on,
 * the code, the unique barcode (when it was one), quantity (×10⁴) and note.
 * It is what the scan screen lists, what keeps a pack from being scanned into
 * two live documents, and what posting reads to mark packs received or
 * delivered. Not an API entity: it is written only by the scan endpoint.
 */
export async function ensureScanTable(db: Database): Promise<void> {
  await db.kysely.schema.createTable('document_scan').ifNotExists()
    .addColumn('id', 'integer', (c) => generatedKey(db.kysely, c))
    .addColumn('doc_entity', 'text', (c) => c.notNull())
    .addColumn('doc_id', 'integer', (c) => c.notNull())
    .addColumn('line_id', 'integer', (c) => c.notNull())
    .addColumn('barcode_id', 'integer')
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('product_id', 'integer', (c) => c.notNull())
    .addColumn('lot_no', 'text')
    .addColumn('expiry_date', 'text')
    .addColumn('qty', 'bigint', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('scanned_at', 'text', (c) => c.notNull())
    .execute();
  await db.kysely.schema.createIndex('document_scan_doc').ifNotExists().on('document_scan').columns(['doc_entity', 'doc_id']).execute();
  await db.kysely.schema.createIndex('document_scan_barcode').ifNotExists().on('document_scan').columns(['barcode_id']).execute();
}

export interface ScanRow {
  id: number; line_id: number; barcode_id: number | null; code: string; product_id: number;
  lot_no: string | null; expiry_date: string | null; qty: number; note: string | null; scanned_at: string;
}

export async function scansOf(k: Kysely<any>, entity: string, docId: number): Promise<ScanRow[]> {
  const rows = await k.selectFrom('document_scan').selectAll().where('doc_entity', '=', entity).where('doc_id', '=', docId).orderBy('id', 'desc').execute();
  return rows.map((r) => ({
    id: Number(r.id), line_id: Number(r.line_id), barcode_id: r.barcode_id === null ? null : Number(r.barcode_id), code: String(r.code), product_id: Number(r.product_id),
    lot_no: r.lot_no ?? null, expiry_date: r.expiry_date ?? null, qty: Number(r.qty), note: r.note ?? null, scanned_at: String(r.scanned_at),
  }));
}
