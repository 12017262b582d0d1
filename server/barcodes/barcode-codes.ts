import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { nextNumber } from '../crud/numbering-series.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { siteSettings } from '../settings/site-settings.ts';

/** When the site sets no format: product code, the business date and a running number. */
export const DEFAULT_BARCODE_FORMAT = '{product_code}-{YY}{MM}{DD}-{seq:6}';

/** Code 128 takes printable ASCII: anything else in a product code or lot becomes "_" so every code prints. */
const ascii = (s: string) => s.replace(/[^\x21-\x7E]/g, '_');

/**
 * The pattern a unique barcode is drawn from: the site's
 * `barcode_unique_print_format` with the product's code and the lot filled in.
 * Tokens: {product_code}, {lot}, {YYYY}, {YY}, {MM}, {DD}, {seq:N}. A format
 * without {seq:N} would repeat itself, so "-{seq:6}" is added to it.
 */
export function barcodePattern(format: string | null | undefined, productCode: string, lot: string | null): string {
  let f = (format ?? '').trim() || DEFAULT_BARCODE_FORMAT;
  if (!/\{seq:[1-9]\}/.test(f)) f += '-{seq:6}';
  return f.replaceAll('{product_code}', ascii(productCode)).replaceAll('{lot}', ascii(lot ?? ''));
}

/**
 * Gives a new barcode row its code, inside the creating transaction. The
 * running number is one counter for every barcode (the numbering table), and a
 * number already taken is skipped, so codes are unique whatever the format.
 */
export function installBarcodeCodes(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action !== 'create' || !e.after || e.after.code) return;
    const code = await drawCode(trx, service, e.after);
    await trx.updateTable(e.entity).set({ code }).where('id', '=', e.id).execute();
    // the answer of the create shows the code it was given
    e.after.code = code;
  }, (entity) => entity.holds === 'packBarcodes');
}

async function drawCode(trx: Kysely<any>, service: EntityService, row: Record<string, unknown>): Promise<string> {
  const settings = await siteSettings(trx, service.registry);
  const product = await trx.selectFrom(service.registry.heldLink('packBarcodes', 'product_id')).select('code').where('id', '=', Number(row.product_id)).executeTakeFirst();
  const pattern = barcodePattern(settings.barcode_unique_print_format as string | null, String(product?.code ?? row.product_id), (row.lot_no as string | null) ?? null);
  const series: EntitySchema = { ...service.entity(service.registry.held('packBarcodes')), numbering: { field: 'code', prefix: '', pattern, resetEvery: 'never' } };
  return nextNumber(trx, series);
}
