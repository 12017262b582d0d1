import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';

type Row = Record<string, unknown>;

/** The document a printed line refers to: its number, date, due date and total, as its schema names them. */
export interface LineReference {
  number: unknown;
  date: unknown;
  due: unknown;
}

/** The number, the document date and the due date of a document row, found through its schema keys. */
export function referenceOf(entity: EntitySchema, row: Row): LineReference {
  const dateField = entity.numbering?.dateField ?? Object.keys(entity.fields).find((n) => entity.fields[n]!.type === 'date' && n !== 'due_date');
  return {
    number: row[entity.numbering?.field ?? entity.titleField],
    date: dateField ? row[dateField] : null,
    due: entity.fields.due_date ? row.due_date : null,
  };
}

/**
 * For lines whose schema has print.references: the document each line
 * links to (a link field to a document), else the one it was made from (its source_line_id names a line of a document listed in the
 * parent's document.from; with several sources, the line's source_entity
 * says which), read as the system like the parties: the printed document
 * names it. Keyed by lines field, then by line index.
 */
export async function readLineReferences(service: EntityService, entity: EntitySchema, row: Row): Promise<Record<string, Map<number, LineReference>>> {
  const out: Record<string, Map<number, LineReference>> = {};
  const from = entity.document?.from ?? [];
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !f.entity || !service.registry.get(f.entity)?.print?.references) continue;
    const refs = new Map<number, LineReference>();
    const cache = new Map<string, LineReference | null>();
    const lineEntity = service.registry.get(f.entity)!;
    // a link on the line to a document (the tax invoice a billing note line bills) names it directly
    const docLinks = Object.entries(lineEntity.fields).filter(([n, lf]) => lf.type === 'link' && n !== lineEntity.parent?.field && service.registry.get(lf.entity ?? '')?.kind === 'document');
    for (const [i, line] of ((row[name] as Row[] | undefined) ?? []).entries()) {
      const linked = docLinks.find(([n]) => Number(line[n]) > 0);
      if (linked) {
        const target = service.registry.get(linked[1].entity!)!;
        const key = `${target.name}#${Number(line[linked[0]])}`;
        if (!cache.has(key)) {
          const doc = await service.get(target.name, Number(line[linked[0]]), systemContext).catch(() => null);
          cache.set(key, doc ? referenceOf(target, doc) : null);
        }
        const ref = cache.get(key);
        if (ref) { refs.set(i, ref); continue; }
      }
      const sourceLine = Number(line.source_line_id);
      const sourceName = from.length === 1 ? from[0]!.source : String(line.source_entity ?? '');
      const source = service.registry.get(sourceName);
      const linesField = source?.document?.lines;
      const lineEntity = linesField ? service.registry.get(source!.fields[linesField]?.entity ?? '') : undefined;
      if (!source || !lineEntity?.parent || !Number.isInteger(sourceLine) || sourceLine < 1) continue;
      const key = `${source.name}:${sourceLine}`;
      if (!cache.has(key)) {
        const parent = await service.db.kysely.selectFrom(lineEntity.name).select(lineEntity.parent.field).where('id', '=', sourceLine).executeTakeFirst() as Row | undefined;
        const doc = parent ? await service.get(source.name, Number(parent[lineEntity.parent.field]), systemContext).catch(() => null) : null;
        cache.set(key, doc ? referenceOf(source, doc) : null);
      }
      const ref = cache.get(key);
      if (ref) refs.set(i, ref);
    }
    out[name] = refs;
  }
  return out;
}
