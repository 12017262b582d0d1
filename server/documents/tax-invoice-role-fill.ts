import type { Kysely } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { taxInvoiceRole } from '../../engine/documents/tax-invoice-role.ts';
import { issuerOf } from '../../engine/schema/schema-types.ts';
import { siteSettings } from '../settings/site-settings.ts';

/**
 * A database from before roles were stored (issue 44): its posted and cancelled documents with a
 * `document.taxInvoice.roleField` (receipts) get the role they have shown so far, once, at start. Until
 * then a receipt's title and e-Tax type followed the site's `tax_invoice` setting of the moment, so the
 * role they were printed and exported with is the one the setting gives now (with the issuer's VAT
 * registration and the receipt's VAT); the newer rule that a sale with a tax invoice gets plain receipts is
 * not applied backwards, since those receipts were issued as tax invoices and their tax is owed (s. 86/13).
 * Drafts keep no role: theirs is decided when they are posted. Nothing happens once no such row is empty.
 */
export async function fillTaxInvoiceRoles(k: Kysely<any>, registry: SchemaRegistry): Promise<number> {
  let filled = 0;
  for (const entity of registry.fileSchemas()) {
    const field = entity.document?.taxInvoice?.roleField;
    if (!field) continue;
    const status = entity.workflow?.field ?? 'status';
    const initial = entity.workflow?.initial ?? 'draft';
    const rows = await k.selectFrom(entity.name).selectAll().where(field, 'is', null).where(status, '!=', initial).execute();
    if (!rows.length) continue;
    const mode = (await siteSettings(k, registry)).tax_invoice;
    // the issuing company (schema key access.companyField): its VAT registration decides the role
    const issuer = issuerOf(entity);
    const companies = new Map<number, Record<string, unknown> | undefined>();
    for (const row of rows) {
      const cid = issuer ? Number(row[issuer.field]) : NaN;
      if (issuer && !companies.has(cid)) companies.set(cid, await k.selectFrom(issuer.entity).selectAll().where('id', '=', cid).executeTakeFirst());
      const role = taxInvoiceRole(entity, { ...row, [field]: null, vat_amount: Number(row.vat_amount ?? 0) / 100 }, companies.get(cid), mode) ?? 'none';
      await k.updateTable(entity.name).set({ [field]: role }).where('id', '=', Number(row.id)).execute();
      filled++;
    }
  }
  return filled;
}
