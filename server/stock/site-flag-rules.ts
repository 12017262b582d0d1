import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { principalOf } from '../auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { createFrom } from '../documents/create-from.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';
import { num } from './stock-documents.ts';

type Row = Record<string, unknown>;
const linesOf = (doc: Row) => (doc.items as Row[] | undefined) ?? [];

function refuse(errors: FieldError[]): never {
  throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: errors });
}

/**
 * The purchasing and delivery site settings, judged inside each write's
 * transaction on what the record will hold:
 *  - `do_create_type` = create_with_so: every delivery order line comes from a source document (a sales order, or a production report);
 *  - `is_po_allow_duplicate_product` off: a product appears on one line of a purchase order only;
 *  - `is_select_multi_inventory_gr` off: goods receipt lines take the header's inventory; on: a line may name its own (one the user may use);
 *  - `is_enable_auto_create_gr_in_po` and `is_auto_create_gr_in_po` both on: approving a purchase order makes a draft goods receipt of it.
 */
export function installSiteFlagRules(service: EntityService, log: (m: string) => void = () => undefined): void {
  service.onWrite(async (trx, e) => {
    if (!e.after || (e.action !== 'create' && e.action !== 'update')) return;
    if (!['delivery_order', 'purchase_order', 'goods_receipt'].includes(e.entity)) return;
    const s = await siteSettings(trx, service.registry);
    const lines = linesOf(e.after);
    if (e.entity === 'delivery_order' && e.after.status === 'draft' && (s.do_create_type ?? 'create_with_so') === 'create_with_so') {
      const loose = lines.map((l, i) => [l, i] as const).filter(([l]) => num(l.source_line_id) === null);
      if (loose.length) refuse(loose.map(([, i]) => ({ field: `items.${i}.source_line_id`, code: 'with_so_only', message: 'delivery orders are made from a sales order on this site (do_create_type is create_with_so)' })));
    }
    if (e.entity === 'purchase_order' && !flagOn(s, 'is_po_allow_duplicate_product')) {
      const seen = new Map<number, number>();
      const dup: FieldError[] = [];
      lines.forEach((l, i) => {
        const p = num(l.product_id);
        if (p === null) return;
        if (seen.has(p)) dup.push({ field: `items.${i}.product_id`, code: 'duplicate', message: `is already on line ${seen.get(p)! + 1} (is_po_allow_duplicate_product is off)` });
        else seen.set(p, i);
      });
      if (dup.length) refuse(dup);
    }
    if (e.entity === 'goods_receipt') {
      const multi = flagOn(s, 'is_select_multi_inventory_gr');
      const errors: FieldError[] = [];
      const p = principalOf(e.ctx);
      const limited = p?.userType?.is_limit_inventory_to_access ? new Set(p.user.inventory_allow) : null;
      lines.forEach((l, i) => {
        const inv = num(l.inventory_id);
        if (inv === null || inv === num(e.after!.inventory_id)) return;
        if (!multi) errors.push({ field: `items.${i}.inventory_id`, code: 'single_inventory', message: 'one inventory per goods receipt: set it on the header (is_select_multi_inventory_gr is off)' });
        else if (limited && !limited.has(inv)) throw new AppError('FORBIDDEN', `You may only use your allowed inventories (${[...limited].join(', ') || 'none'}); items.${i}.inventory_id ${inv} is not one of them`);
      });
      if (errors.length) refuse(errors);
    }
  });

  service.afterCommit((e) => {
    if (e.entity !== 'purchase_order' || e.action !== 'update' || e.before?.status !== 'draft' || e.after?.status !== 'approved') return;
    void (async () => {
      const s = await siteSettings(service.db.kysely, service.registry);
      if (!flagOn(s, 'is_enable_auto_create_gr_in_po') || !flagOn(s, 'is_auto_create_gr_in_po')) return;
      // made as the approver, through the ordinary create-from path (their rights, numbering, audit)
      await createFrom(service, 'goods_receipt', 'purchase_order', { ids: [e.id] }, e.ctx);
    })().catch((err: unknown) => log(`could not create the goods receipt of purchase order ${e.id}: ${(err as Error).message}`));
  });
}
