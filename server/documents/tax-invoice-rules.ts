import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';

type Row = Record<string, unknown>;

/**
 * What a full Thai tax invoice must state besides its number and date: both tax ids and head office
 * or branch numbers, and the buyer's name (the address is printed when known, not enforced: many
 * customers' records have none yet).
 */
export const FULL_INVOICE_FIELDS = ['seller_tax_id', 'seller_branch_code', 'buyer_name', 'buyer_tax_id', 'buyer_branch_code'] as const;
/** An abbreviated one (s. 86/6) names the seller; the buyer may stay anonymous. */
export const ABBREVIATED_INVOICE_FIELDS = ['seller_tax_id'] as const;

const blank = (v: unknown) => v === null || v === undefined || String(v).trim() === '';

/**
 * The site settings that shape a tax invoice (a document whose schema gives document.taxInvoice.formField
 * and .shipTo; no entity is named here):
 * - `tax_invoice` "full": every invoice is a full one; "abbreviated": the
 *   business may also issue abbreviated ones. Checked when the invoice is issued,
 *   so a draft can be completed first.
 * - `is_enable_customer_ship_to_details`: a new invoice takes its ship-to name and
 *   address from the customer's default shipping address, unless given (the form
 *   shows the ship-to fields only while it is on: schema key `enabledBy`).
 * - A new invoice that names no `invoice_type` takes the site's `tax_invoice`
 *   (schema key `defaultSetting`, applied by installSettingDefaults).
 */
export function installTaxInvoiceRules(service: EntityService): void {
  installSettingDefaults(service);
  service.onAction(async (trx, e) => {
    const formField = e.entity.document?.taxInvoice?.formField;
    if (!formField || e.action !== (e.entity.document?.postAction ?? 'approve')) return;
    const site = await siteSettings(trx, service.registry);
    const form = String(e.after[formField] ?? 'full');
    if (form === 'abbreviated' && (site.tax_invoice ?? 'full') === 'full') {
      throw new AppError('VALIDATION_FAILED', `${formField}: the site issues full tax invoices only (site setting tax_invoice)`, {
        fields: [{ field: formField, code: 'enum', message: 'must be full: the site setting allows full tax invoices only', params: { allowed: 'full' } }],
      });
    }
    const needed = form === 'full' ? FULL_INVOICE_FIELDS : ABBREVIATED_INVOICE_FIELDS;
    const missing = needed.filter((f) => blank(e.after[f]));
    if (missing.length) {
      throw new AppError('VALIDATION_FAILED', `${missing.join(', ')}: a ${form} tax invoice must state them before it is issued`, {
        fields: missing.map((field) => ({ field, code: 'required', message: 'is required' })),
      });
    }
  }, (entity) => !!entity.document?.taxInvoice?.formField);
  service.onWrite(async (trx, e) => {
    const shipTo = service.registry.get(e.entity)?.document?.taxInvoice?.shipTo;
    if (!shipTo || e.action !== 'create' || !e.after) return;
    if (!blank(e.after[shipTo.address]) || !e.after.customer_id) return;
    if (!flagOn(await siteSettings(trx, service.registry), 'is_enable_customer_ship_to_details')) return;
    const book = addressBookOf(service.registry, e.entity);
    if (!book) return;
    const addr = await trx.selectFrom(book.entity).selectAll().where(book.field, '=', Number(e.after.customer_id)).where('address_type', '=', 'shipping')
      .orderBy('is_default', 'desc').orderBy('id').limit(1).executeTakeFirst();
    if (!addr) return;
    const text = [addr.address_line, addr.sub_district, addr.district, addr.province, addr.postal_code].filter((v) => !blank(v)).join(' ');
    const values = { [shipTo.name]: addr.name ?? null, [shipTo.address]: text.slice(0, 500) || null };
    await trx.updateTable(e.entity).set(values).where('id', '=', e.id).execute();
    Object.assign(e.after, values);
  }, (entity) => !!entity.document?.taxInvoice?.shipTo);
}

/**
 * Schema key `defaultSetting` on the server: a new record that leaves such a
 * field empty takes the site setting's value (an enum only when it is one of
 * the field's options), else the field's `default`. The form shows the same
 * value (web/src/renderer/form-model.ts defaultValues), so what the user sees
 * is what is stored. Written in the create's transaction, like the ship-to fill.
 */
export function installSettingDefaults(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action !== 'create' || !e.after) return;
    const entity = service.registry.get(e.entity);
    const fields = Object.entries(entity?.fields ?? {}).filter(([n, f]) => f.defaultSetting && blank(e.after![n]));
    if (!fields.length) return;
    const site = await siteSettings(trx, service.registry);
    const values: Row = {};
    for (const [name, f] of fields) {
      const v = site[f.defaultSetting!];
      const usable = !blank(v) && (!f.options || f.options.some((o) => o.value === v));
      const value = usable ? v : f.default;
      if (value !== undefined && value !== null) values[name] = value;
    }
    if (!Object.keys(values).length) return;
    await trx.updateTable(e.entity).set(values).where('id', '=', e.id).execute();
    Object.assign(e.after, values);
  }, (entity) => Object.values(entity.fields).some((f) => !!f.defaultSetting));
}

/**
 * Where a document's customer keeps its addresses: the lines of the entity its `customer_id` links to whose rows have an
 * `address_type` (the customer's addresses), with their link to the customer; found in the schemas, never by name.
 */
function addressBookOf(registry: SchemaRegistry, document: string): { entity: string; field: string } | null {
  const target = fieldOf(registry.get(document) ?? { fields: {} }, 'customer_id')?.entity;
  const customer = target ? registry.get(target) : undefined;
  for (const f of Object.values(customer?.fields ?? {})) {
    const child = f.type === 'lines' && f.entity ? registry.get(f.entity) : undefined;
    if (child?.parent && fieldOf(child, 'address_type')) return { entity: child.name, field: child.parent.field };
  }
  return null;
}
