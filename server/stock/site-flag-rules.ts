import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { principalOf } from '../auth/principal.ts';
import { AppError } from '../errors/app-error.ts';
import { createFrom } from '../documents/create-from.ts';
import { flagOn, siteSettings } from '../settings/site-settings.ts';
import { num } from './stock-documents.ts';

type Row = Record<string, unknown>;
const linesOf = (doc: Row, field: string | undefined) => (field ? (doc[field] as Row[] | undefined) : undefined) ?? [];

function refuse(errors: FieldError[]): never {
  throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: errors });
}

/**
 * The purchasing and delivery site settings, judged inside each write's transaction on what the record
 * will hold. Each rule is a schema key of the document (docs/schema-format.md, "Site-setting rules"):
 *  - `document.sourceRequiredWhen` (delivery orders, do_create_type = create_with_so): every line comes from a source document;
 *  - `document.uniqueLineProduct` (purchase orders, unless is_po_allow_duplicate_product): a product on one line only;
 *  - `document.stock.lineInventorySetting` (goods receipts, is_select_multi_inventory_gr): off, lines take the
 *    header's inventory; on, a line may name its own (one the user may use);
 *  - `document.autoCreate` (purchase orders): approving one makes a draft goods receipt of it while the settings are on.
 */
export function installSiteFlagRules(service: EntityService, log: (m: string) => void = () => undefined): void {
  const creates = (e: { action: string; after?: Row | null }) => !!e.after && (e.action === 'create' || e.action === 'update');

  service.onWrite(async (trx, e) => {
    if (!creates(e)) return;
    const entity = service.entity(e.entity);
    const d = entity.document!;
    const rule = d.sourceRequiredWhen!;
    if (!rule.states.includes(String(e.after![entity.workflow!.field]))) return;
    const s = await siteSettings(trx, service.registry);
    // an unset setting is the site default, which is the rule's value
    if ((s[rule.setting] ?? rule.equals) !== rule.equals) return;
    const loose = linesOf(e.after!, d.lines).map((l, i) => [l, i] as const).filter(([l]) => num(l.source_line_id) === null);
    if (loose.length) refuse(loose.map(([, i]) => ({ field: `${d.lines}.${i}.source_line_id`, code: 'with_so_only', message: `every line comes from a source document on this site (${rule.setting} is ${rule.equals})` })));
  }, (entity) => !!entity.document?.sourceRequiredWhen && !!entity.workflow);

  service.onWrite(async (trx, e) => {
    if (!creates(e)) return;
    const d = service.entity(e.entity).document!;
    const rule = d.uniqueLineProduct!;
    const s = await siteSettings(trx, service.registry);
    if (flagOn(s, rule.unlessSetting)) return;
    const seen = new Map<number, number>();
    const dup: FieldError[] = [];
    linesOf(e.after!, d.lines).forEach((l, i) => {
      const p = num(l[rule.field]);
      if (p === null) return;
      if (seen.has(p)) dup.push({ field: `${d.lines}.${i}.${rule.field}`, code: 'duplicate', message: `is already on line ${seen.get(p)! + 1} (${rule.unlessSetting} is off)` });
      else seen.set(p, i);
    });
    if (dup.length) refuse(dup);
  }, (entity) => !!entity.document?.uniqueLineProduct);

  service.onWrite(async (trx, e) => {
    if (!creates(e)) return;
    const d = service.entity(e.entity).document!;
    const { inventory, lineInventorySetting } = d.stock!;
    const s = await siteSettings(trx, service.registry);
    const multi = flagOn(s, lineInventorySetting!);
    const errors: FieldError[] = [];
    const p = principalOf(e.ctx);
    const limited = p?.userType?.is_limit_inventory_to_access ? new Set(p.user.inventory_allow) : null;
    linesOf(e.after!, d.lines).forEach((l, i) => {
      const inv = num(l[inventory]);
      if (inv === null || inv === num(e.after![inventory])) return;
      if (!multi) errors.push({ field: `${d.lines}.${i}.${inventory}`, code: 'single_inventory', message: `one inventory per document: set it on the header (${lineInventorySetting} is off)` });
      else if (limited && !limited.has(inv)) throw new AppError('FORBIDDEN', `You may only use your allowed inventories (${[...limited].join(', ') || 'none'}); ${d.lines}.${i}.${inventory} ${inv} is not one of them`);
    });
    if (errors.length) refuse(errors);
  }, (entity) => !!entity.document?.stock?.lineInventorySetting);

  service.afterCommit((e) => {
    if (e.action !== 'update' || !e.before || !e.after) return;
    const entity = service.entity(e.entity);
    const status = entity.workflow!.field;
    for (const rule of entity.document!.autoCreate!) {
      if (e.before[status] !== rule.from || e.after[status] !== rule.to) continue;
      void (async () => {
        const s = await siteSettings(service.db.kysely, service.registry);
        if (!rule.settings.every((name) => flagOn(s, name))) return;
        // made as the user who moved it, through the ordinary create-from path (their rights, numbering, audit)
        await createFrom(service, rule.target, e.entity, { ids: [e.id] }, e.ctx);
      })().catch((err: unknown) => log(`could not create the ${rule.target} of ${e.entity} ${e.id}: ${(err as Error).message}`));
    }
  }, (entity) => !!entity.document?.autoCreate?.length && !!entity.workflow);
}
