import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';

/** A product's attribute lines (kind "lines" of product): one row per attribute and chosen option. */
const VALUES = 'product_attribute_value';

/** How many live (not archived) products carry a line with this column = id. */
export async function productsUsing(k: Kysely<any>, column: string, id: number): Promise<number> {
  const row = await k.selectFrom('product_attribute_value as v')
    .innerJoin('product as p', 'p.id', 'v.product_id')
    .select((eb) => eb.fn.count<number>('v.product_id').distinct().as('n'))
    .where(`v.${column}`, '=', id)
    .where('p.is_deleted', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Archiving an option (or a whole attribute) that products still carry is refused with
 * IN_USE and the number of products, inside the delete's transaction: the lines would
 * otherwise point at an option no screen offers any more.
 */
export function installAttributeUsageGuard(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action !== 'delete') return;
    // the column of a product's attribute lines that links to the archived row, as their schema declares it
    const column = Object.entries(service.registry.get(VALUES)?.fields ?? {}).find(([, f]) => f.type === 'link' && f.entity === e.entity)?.[0];
    if (!column) return;
    const count = await productsUsing(trx, column, e.id);
    if (count > 0) {
      const entity = service.entity(e.entity);
      throw new AppError('IN_USE', `${count} product(s) still use this ${entity.label.en.toLowerCase()}; remove it from them first`,
        { count }, { reason: 'products', entity: entity.label, count });
    }
  }, (entity) => Object.values(service.registry.get(VALUES)?.fields ?? {}).some((f) => f.type === 'link' && f.entity === entity.name));
}
