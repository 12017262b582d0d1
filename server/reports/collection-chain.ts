import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import { fieldOf, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { DECLARED_SCREENS } from '../../engine/schema/declared-screens.ts';
import { screenEntity } from '../../engine/schema/screen-loader.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * The documents the collection summary reads, from the declarations rather than named here: the bills are the
 * entity its screen needs (schemas/screens/screens.json, needs.entity), the receipts the document made from
 * them (its document.from[] names the bills); with each one's lines table and the lines' parent field.
 */
export interface CollectionChain {
  bills: EntitySchema;
  billLines: string;
  billOf: string;
  receipts: EntitySchema;
  receiptLines: string;
  receiptOf: string;
}

function linesOf(registry: SchemaRegistry, e: EntitySchema): { table: string; parent: string } | null {
  const child = e.document?.lines ? registry.get(fieldOf(e, e.document.lines)?.entity ?? '') : undefined;
  return child?.parent ? { table: child.name, parent: child.parent.field } : null;
}

export function collectionChain(registry: SchemaRegistry): CollectionChain {
  const name = screenEntity(DECLARED_SCREENS, 'collection_summary');
  const bills = name ? registry.get(name) : undefined;
  const receipts = bills && registry.all().find((e) => e.document?.from?.some((f) => f.source === bills.name));
  const bl = bills && linesOf(registry, bills);
  const rl = receipts && linesOf(registry, receipts);
  if (!bills || !receipts || !bl || !rl) throw new AppError('NOT_FOUND', 'The collection summary needs the bills its screen names and a document made from them');
  return { bills, billLines: bl.table, billOf: bl.parent, receipts, receiptLines: rl.table, receiptOf: rl.parent };
}
