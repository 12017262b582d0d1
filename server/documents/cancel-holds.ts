import type { Kysely } from 'kysely';
import { softDeleteColumn, type EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';

/** A live record that holds a document against its cancel (a later document made from it, or a record linked with `onCancel: restrict`). */
export interface Dependent {
  entity: string;
  id: number;
  number: string;
  label: { th: string; en: string };
}

type Row = Record<string, unknown>;

/** The header links declared `"onCancel": "restrict"` that point at `target`: the records that hold it against cancel. */
export function holdingLinks(all: readonly EntitySchema[], target: string): { entity: EntitySchema; field: string }[] {
  const out: { entity: EntitySchema; field: string }[] = [];
  for (const e of all) {
    for (const [name, f] of Object.entries(e.fields)) if (f.type === 'link' && f.entity === target && f.onCancel === 'restrict') out.push({ entity: e, field: name });
  }
  return out;
}

/**
 * The live records that name this document through a link declared `"onCancel": "restrict"` (a 50 ทวิ certificate
 * made from a payment voucher): not archived, not in a final state of their workflow (cancelled). A draft holds too:
 * it already states what the document it names withheld, and would stand on a cancelled one. The document's cancel
 * answers them as its dependents (cancel-guard.ts), like the documents made from its lines.
 */
export async function heldBy(trx: Kysely<any>, service: EntityService, entity: EntitySchema, id: number): Promise<Dependent[]> {
  const out: Dependent[] = [];
  for (const { entity: holder, field } of holdingLinks(service.registry.all(), entity.name)) {
    const status = holder.workflow?.field;
    const final = holder.workflow?.states.filter((s) => s.final).map((s) => s.value) ?? [];
    let q = trx.selectFrom(holder.name).select(['id', holder.titleField]).where(field, '=', id).orderBy('id');
    if (status && final.length) q = q.where((eb) => eb.or([eb(status, 'not in', final), eb(status, 'is', null)]));
    const soft = softDeleteColumn(holder);
    if (soft) q = q.where(soft, '=', 0);
    for (const r of await q.execute() as Row[]) {
      const no = r[holder.titleField];
      // a draft has no number yet: its id tells it apart
      out.push({ entity: holder.name, id: Number(r.id), number: no === null || no === undefined || no === '' ? `#${String(r.id)}` : String(no), label: holder.label });
    }
  }
  return out;
}
