import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { inBatches } from '../db/batches.ts';
import { linesOf } from './document-lines.ts';
import { sourceOf } from './document-posting.ts';

type Row = Record<string, unknown>;

/**
 * The highest withholding rate (%) on the source lines these lines take from, and on their documents' headers
 * (a line's 0 means "as the document"). A source whose lines carry no rate (a bill) is followed to the lines it
 * was made from (the bill's order), one step at a time, at most `depth` steps.
 */
async function highestRate(trx: Kysely<any>, service: EntityService, target: EntitySchema, lineEntity: EntitySchema, lines: Row[], depth: number): Promise<number> {
  let best = 0;
  const bySource = new Map<string, number[]>();
  for (const l of lines) {
    if (l.source_line_id === null || l.source_line_id === undefined) continue;
    const spec = sourceOf(target, lineEntity, l);
    if (spec) bySource.set(spec.source, [...(bySource.get(spec.source) ?? []), Number(l.source_line_id)]);
  }
  for (const [name, ids] of bySource) {
    const source = service.entity(name);
    const src = linesOf(service, source);
    const rated = Boolean(src.entity.fields.wht_rate);
    const cols = ['id', src.parentField, 'source_line_id', ...(rated ? ['wht_rate'] : []), ...(src.entity.fields.source_entity ? ['source_entity'] : [])];
    const rows: Row[] = [];
    for (const batch of inBatches(ids, 1)) rows.push(...await trx.selectFrom(src.entity.name).select(cols).where('id', 'in', batch).execute());
    if (rated) {
      for (const r of rows) best = Math.max(best, Number(r.wht_rate ?? 0));
      if (source.fields.wht_rate) {
        const heads = [...new Set(rows.map((r) => Number(r[src.parentField])))];
        for (const batch of inBatches(heads, 1)) for (const h of await trx.selectFrom(source.name).select('wht_rate').where('id', 'in', batch).execute()) best = Math.max(best, Number(h.wht_rate ?? 0));
      }
    } else if (depth > 1 && source.document?.from?.length) {
      best = Math.max(best, await highestRate(trx, service, source, src.entity, rows, depth - 1));
    }
  }
  return best;
}

/**
 * Fills `document.sourcesWhtRate` on every save (issue 44 §6): a receipt may record tax withheld whatever its
 * sources say (customers withhold on their own judgement), and the form warns (`warnIf` on wht_amount) when it
 * does while this is 0.
 */
export function installSourcesWhtRate(service: EntityService): void {
  service.onWrite(async (trx, e) => {
    if (e.action === 'delete' || e.workflowAction || !e.after) return;
    const entity = service.entity(e.entity);
    const field = entity.document!.sourcesWhtRate!;
    const lines = linesOf(service, entity);
    const cols = ['source_line_id', ...(lines.entity.fields.source_entity ? ['source_entity'] : [])];
    const rows = await trx.selectFrom(lines.entity.name).select(cols).where(lines.parentField, '=', e.id).execute();
    const rate = await highestRate(trx, service, entity, lines.entity, rows, 3);
    if (Number(e.after[field] ?? 0) === rate) return;
    await trx.updateTable(entity.name).set({ [field]: rate }).where('id', '=', e.id).execute();
    e.after[field] = rate;
  }, (entity) => Boolean(entity.document?.sourcesWhtRate && entity.document.lines));
}
