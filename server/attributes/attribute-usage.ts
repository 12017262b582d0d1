import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * How many live (not archived) products carry a line with this column = id. `values` is the product's attribute lines
 * (`"holds": "productAttributes"`, kind "lines" of the product: one row per attribute and chosen option).
 */
export async function productsUsing(k: Kysely<any>, values: EntitySchema, column: string, id: number): Promise<number> {
  const row = await k.selectFrom(`${values.name} as v`)
    .innerJoin(`${values.parent!.entity} as p`, 'p.id', `v.${values.parent!.field}`)
    .select((eb) => eb.fn.count<number>(`v.${values.parent!.field}`).distinct().as('n'))
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
  const values = () => service.registry.holder('productAttributes');
  service.onWrite(async (trx, e) => {
    if (e.action !== 'delete') return;
    // the column of a product's attribute lines that links to the archived row, as their schema declares it
    const lines = values()!;
    const column = Object.entries(lines.fields).find(([, f]) => f.type === 'link' && f.entity === e.entity)?.[0];
    if (!column) return;
    const count = await productsUsing(trx, lines, column, e.id);
    if (count > 0) {
      const entity = service.entity(e.entity);
      throw new AppError('IN_USE', `${count} product(s) still use this ${entity.label.en.toLowerCase()}; remove it from them first`,
        { count }, { reason: 'products', entity: entity.label, count });
    }
  }, (entity) => Object.values(values()?.fields ?? {}).some((f) => f.type === 'link' && f.entity === entity.name));
}
