import type { EntitySchema } from '../schema/schema-types.ts';

type Row = Record<string, unknown>;

/**
 * Whether a document whose schema gives `print.taxInvoiceTitle` (a receipt) also serves as a tax invoice, and
 * which kind: when the issuing company is VAT registered, the document carries VAT, and the site's
 * `tax_invoice` setting names a mode the schema has a title for. The one rule the print's title
 * ("ใบเสร็จรับเงิน/ใบกำกับภาษี") and the e-Tax type code (`document.etax.typeCodeWhen`) both follow.
 */
export function taxInvoiceRole(entity: EntitySchema, row: Row, issuer: Row | null | undefined, taxInvoiceMode: unknown): 'full' | 'abbreviated' | null {
  const mode = taxInvoiceMode === 'abbreviated' ? 'abbreviated' : taxInvoiceMode === 'full' ? 'full' : null;
  if (!mode || !entity.print?.taxInvoiceTitle?.[mode]) return null;
  if (!(Number(row.vat_amount ?? 0) > 0)) return null;
  if (!issuer || issuer.is_vat_registered === false || issuer.is_vat_registered === 0) return null;
  return mode;
}
