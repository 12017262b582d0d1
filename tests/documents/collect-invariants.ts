/**
 * The invariants of issue 44 §11 about money collected and live sources, read straight from the tables:
 * - the money collected for an order, by every path (receipts straight from it, its bills and their receipts,
 *   bills of its tax invoices), never exceeds its total;
 * - no live (posted, not cancelled) document stands on a cancelled source.
 */
import type { Kysely } from 'kysely';
import type { TestApp } from '../support/test-app.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { cancelledState } from '../../server/documents/cancel-guard.ts';
import { saleBalance } from '../../server/documents/sale-balance.ts';

/** Every source that documents collect from in a pool (sales orders), each of its documents within its total. */
export async function collectedWithinTotal(t: TestApp, k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const pools = new Set(t.registry.all().flatMap((e) => (e.document?.from ?? []).filter((f) => f.pool).map((f) => `${f.source}|${f.pool}`)));
  for (const key of pools) {
    const [source, pool] = key.split('|') as [string, string];
    // a document that is itself a member of the pool (a bill, whose receipts collect from it) is judged as its source's part
    if (t.registry.get(source)!.document?.from?.some((f) => f.pool === pool)) continue;
    const entity = t.registry.get(source)!;
    const cancelled = cancelledState(entity);
    const child = t.registry.get(fieldOf(entity, entity.document!.lines!)!.entity!)!;
    // only documents something was made from can have collected anything
    const linked = k.selectFrom('document_link as l').innerJoin(`${child.name} as sl`, 'sl.id', 'l.source_line_id')
      .select(`sl.${child.parent!.field}`).where('l.source_entity', '=', source);
    for (const r of await k.selectFrom(source).select(['id', entity.workflow!.field]).where('id', 'in', linked).execute()) {
      const b = await saleBalance(k, t.service, source, Number(r.id), pool);
      if (b.claimed > b.total || b.received > b.total) out.push(`${source} ${r.id}: ${b.claimed} satang claimed and ${b.received} received of a total of ${b.total}`);
      if (r[entity.workflow!.field] === cancelled && b.claimed > 0) out.push(`${source} ${r.id} is cancelled with ${b.claimed} satang still claimed`);
    }
  }
  return out;
}

/** No live document takes from a cancelled one: every link of a posted document names a source that is not cancelled. */
export async function noLiveOnCancelled(t: TestApp, k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const links = await k.selectFrom('document_link').select(['target_entity', 'target_line_id', 'source_entity', 'source_line_id']).execute();
  const sources = new Set(links.map((l) => String(l.source_entity)));
  for (const name of sources) {
    const source = t.registry.get(name)!;
    const gone = cancelledState(source);
    if (!gone || !source.workflow) continue;
    const child = t.registry.get(fieldOf(source, source.document!.lines!)!.entity!)!;
    const rows = await k.selectFrom('document_link as l')
      .innerJoin(`${child.name} as sl`, 'sl.id', 'l.source_line_id')
      .innerJoin(`${name} as s`, 's.id', `sl.${child.parent!.field}`)
      .select(['l.target_entity', 'l.target_line_id', 's.id as source_id'])
      .where('l.source_entity', '=', name).where(`s.${source.workflow.field}`, '=', gone).execute();
    for (const r of rows) out.push(`${r.target_entity} line ${r.target_line_id} is live on ${name} ${r.source_id}, which is cancelled`);
  }
  // and the link's own document is live: a cancelled document keeps no links
  for (const name of new Set(links.map((l) => String(l.target_entity)))) {
    const target = t.registry.get(name)!;
    const gone = cancelledState(target);
    if (!gone || !target.workflow) continue;
    const child = t.registry.get(fieldOf(target, target.document!.lines!)!.entity!)!;
    const rows = await k.selectFrom('document_link as l')
      .innerJoin(`${child.name} as tl`, 'tl.id', 'l.target_line_id')
      .innerJoin(`${name} as d`, 'd.id', `tl.${child.parent!.field}`)
      .select(['d.id as id']).where('l.target_entity', '=', name).where(`d.${target.workflow.field}`, 'in', [gone, target.workflow.initial]).execute();
    for (const r of rows) out.push(`${name} ${r.id} is cancelled or a draft but still takes from its sources`);
  }
  return out;
}
