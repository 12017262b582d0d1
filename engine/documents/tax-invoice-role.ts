import type { EntitySchema } from '../schema/schema-types.ts';

type Row = Record<string, unknown>;

/**
 * Whether a document whose schema gives `print.taxInvoiceTitle` (a receipt) also serves as a tax invoice, and
 * which kind: when the issuing company is VAT registered, the document carries VAT, and the site's
 * `tax_invoice` setting names a mode the schema has a title for. The one rule the print's title
 * ("ใบเสร็จรับเงิน/ใบกำกับภาษี") and the e-Tax type code (`document.etax.typeCodeWhen`) both follow.
 *
 * A posted document keeps the role it was given when posted (`document.taxInvoice.roleField`, which also weighs
 * whether its sale already had a tax invoice: server/documents/tax-invoice-supply.ts): the stored value wins, so
 * changing the site setting later retitles nothing. Only a draft, which has none yet, is judged here afresh.
 */
export function taxInvoiceRole(entity: EntitySchema, row: Row, issuer: Row | null | undefined, taxInvoiceMode: unknown): 'full' | 'abbreviated' | null {
  const roleField = entity.document?.taxInvoice?.roleField;
  const stored = roleField ? row[roleField] : undefined;
  if (stored === 'full' || stored === 'abbreviated') return stored;
  if (stored === 'none') return null;
  const mode = taxInvoiceMode === 'abbreviated' ? 'abbreviated' : taxInvoiceMode === 'full' ? 'full' : null;
  if (!mode || !entity.print?.taxInvoiceTitle?.[mode]) return null;
  if (!(Number(row.vat_amount ?? 0) > 0)) return null;
  if (!issuer || issuer.is_vat_registered === false || issuer.is_vat_registered === 0) return null;
  return mode;
}
