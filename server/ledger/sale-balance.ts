import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { isEmpty } from '../crud/record-values.ts';
import { inBatches } from '../db/batches.ts';
import { linesOf } from '../documents/document-lines.ts';
import { sourceOf } from '../documents/document-posting.ts';
import { JOURNAL, POSTED } from './journal-writer.ts';

type Row = Record<string, unknown>;
/** Documents as entity name -> ids. */
type Docs = Map<string, Set<number>>;

const MAX_DEPTH = 6;
const add = (docs: Docs, entity: string, id: number) => docs.set(entity, (docs.get(entity) ?? new Set()).add(id));

/** The headers of these lines (entity, line id). */
async function headersOf(k: Kysely<any>, service: EntityService, lines: { entity: string; lineId: number }[], out: Docs): Promise<void> {
  for (const entity of new Set(lines.map((l) => l.entity))) {
    const src = linesOf(service, service.entity(entity));
    const ids = [...new Set(lines.filter((l) => l.entity === entity).map((l) => l.lineId))];
    for (const batch of inBatches(ids, 1)) {
      for (const r of await k.selectFrom(src.entity.name).select(src.parentField).where('id', 'in', batch).execute()) add(out, entity, Number(r[src.parentField]));
    }
  }
}

/**
 * The sale a document's lines come from (the documents its lines were made from) and every document made from
 * them, directly or through others (a receipt of a bill of the order), through `document_link` written at posting.
 */
async function saleDocuments(k: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row): Promise<Docs> {
  const lines = linesOf(service, entity);
  const first: { entity: string; lineId: number }[] = [];
  for (const l of (doc[lines.field] as Row[] | undefined) ?? []) {
    if (isEmpty(l.source_line_id)) continue;
    const spec = sourceOf(entity, lines.entity, l);
    if (spec) first.push({ entity: spec.source, lineId: Number(l.source_line_id) });
  }
  const all: Docs = new Map();
  let level: Docs = new Map();
  await headersOf(k, service, first, level);
  for (let depth = 0; depth < MAX_DEPTH && level.size; depth++) {
    const next: Docs = new Map();
    for (const [name, ids] of level) {
      const fresh = [...ids].filter((id) => !all.get(name)?.has(id));
      fresh.forEach((id) => add(all, name, id));
      if (!fresh.length || !service.entity(name).document?.lines) continue;
      const src = linesOf(service, service.entity(name));
      const lineIds: number[] = [];
      for (const batch of inBatches(fresh, 1)) lineIds.push(...(await k.selectFrom(src.entity.name).select('id').where(src.parentField, 'in', batch).execute()).map((r) => Number(r.id)));
      const links: Row[] = [];
      for (const batch of inBatches(lineIds, 1)) links.push(...await k.selectFrom('document_link').select(['target_entity', 'target_line_id']).where('source_entity', '=', name).where('source_line_id', 'in', batch).execute());
      await headersOf(k, service, links.map((l) => ({ entity: String(l.target_entity), lineId: Number(l.target_line_id) })), next);
    }
    level = next;
  }
  return all;
}

/**
 * The credit balance (satang) of an account role in the posted entries of the documents of a document's sale
 * (journal-spec-types.ts `saleBalance`): the customer deposits a sale's receipts took before it was invoiced, less
 * what its invoices cleared of them. The document being posted has no entry yet, so it does not count itself.
 */
export async function saleBalance(k: Kysely<any>, service: EntityService, entity: EntitySchema, doc: Row, accountId: number): Promise<number> {
  const docs = await saleDocuments(k, service, entity, doc);
  const head = service.entity(JOURNAL);
  const lines = service.entity(head.fields.items!.entity!);
  const parent = lines.parent!.field;
  let total = 0;
  for (const [name, ids] of docs) {
    for (const batch of inBatches([...ids], 1)) {
      const row = await k.selectFrom(`${lines.name} as l`).innerJoin(`${head.name} as e`, 'e.id', `l.${parent}`)
        .select((eb) => [eb.fn.sum<number>('l.credit').as('cr'), eb.fn.sum<number>('l.debit').as('dr')])
        .where('e.status', '=', POSTED).where('e.source_entity', '=', name).where('e.source_id', 'in', batch).where('l.account_id', '=', accountId).executeTakeFirst();
      total += Number(row?.cr ?? 0) - Number(row?.dr ?? 0);
    }
  }
  return total;
}
