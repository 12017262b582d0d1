import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import { entitiesNamed } from '../crud/write-events.ts';
import { AppError } from '../errors/app-error.ts';

/** How many live (not archived) products carry a line with this column = id. */
export async function productsUsing(k: Kysely<any>, column: 'option_id' | 'attribute_id', id: number): Promise<number> {
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
    const column = e.entity === 'attribute_option' ? 'option_id' : 'attribute_id';
    const count = await productsUsing(trx, column, e.id);
    if (count > 0) {
      const entity = service.entity(e.entity);
      throw new AppError('IN_USE', `${count} product(s) still use this ${entity.label.en.toLowerCase()}; remove it from them first`,
        { count }, { reason: 'products', entity: entity.label, count });
    }
  }, entitiesNamed('attribute_option', 'product_attribute'));
}
