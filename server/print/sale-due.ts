import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { poolRoots, saleBalance } from '../documents/sale-balance.ts';

type Row = Record<string, unknown>;
const POOL = 'collect';

/** Whether documents collect from `entity` in the pool (it is a sale: a sales order). */
const isSale = (service: EntityService, entity: string) => service.registry.all().some((e) => e.document?.from?.some((f) => f.source === entity && f.pool === POOL));

/** The document a line of `entity` belongs to. */
async function parentsOf(k: Kysely<any>, service: EntityService, entity: string, lineIds: number[]): Promise<number[]> {
  const e = service.registry.get(entity);
  const lineEntity = e?.document?.lines ? service.registry.get(e.fields[e.document.lines]?.entity ?? '') : undefined;
  if (!lineEntity?.parent || !lineIds.length) return [];
  const rows = await k.selectFrom(lineEntity.name).select(lineEntity.parent.field).where('id', 'in', lineIds).execute() as Row[];
  return [...new Set(rows.map((r) => Number(r[lineEntity.parent!.field])))];
}

/**
 * What is still owed of the sale(s) a document belongs to, in satang, whatever path paid them (issue 47 §2,
 * saleBalance of issue 44): the sales it was made from, followed up document_link at most three documents
 * (an invoice's order, a bill's invoice's order), else the document itself when documents collect from it.
 * A document others collect from is not always the sale: bills collect from a tax invoice too, yet an
 * invoice made from an order is money of that order (poolRoots), which a receipt straight from the order
 * settles. Null when the document belongs to no sale (a bill typed by hand): its own figure stands.
 */
export async function saleDueSatang(service: EntityService, entity: EntitySchema, row: Row): Promise<number | null> {
  const k = service.db.kysely;
  const lines = entity.document?.lines ? ((row[entity.document.lines] as Row[] | undefined) ?? []) : [];
  const own = lines.map((l) => Number(l.id)).filter((n) => Number.isInteger(n) && n > 0);
  const sales = new Map<string, Set<number>>();
  /** The sale these lines of `source` belong to: the order an invoice line was made from, else `source`. */
  const addSale = async (source: string, lineIds: number[]) => {
    const roots = await poolRoots(k, service, source, POOL, lineIds);
    for (const id of lineIds) {
      const root = roots.get(id);
      const [sale, line] = root ? [root.source, root.lineId] : [source, id];
      const set = sales.get(sale) ?? new Set<number>();
      for (const doc of await parentsOf(k, service, sale, [line])) set.add(doc);
      sales.set(sale, set);
    }
  };
  if (isSale(service, entity.name)) {
    if (!own.length) return (await saleBalance(k, service, entity.name, Number(row.id), POOL)).due;
    await addSale(entity.name, own);
  } else {
    let level = new Map<string, number[]>([[entity.name, own]]);
    for (let depth = 0; depth < 3 && level.size; depth++) {
      const next = new Map<string, number[]>();
      for (const [target, ids] of level) {
        if (!ids.length) continue;
        const links = await k.selectFrom('document_link').select(['source_entity', 'source_line_id']).where('target_entity', '=', target).where('target_line_id', 'in', ids).execute();
        for (const l of links) {
          const source = String(l.source_entity);
          if (isSale(service, source)) await addSale(source, [Number(l.source_line_id)]);
          else next.set(source, [...(next.get(source) ?? []), Number(l.source_line_id)]);
        }
      }
      level = next;
    }
  }
  if (!sales.size) return null;
  let due = 0;
  for (const [source, ids] of sales) for (const id of ids) due += (await saleBalance(k, service, source, id, POOL)).due;
  return due;
}
