import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';
import { inBatches } from '../db/batches.ts';

/**
 * How much of each source line posted documents of one kind have processed
 * (delivered, billed …), as a scaled integer, and which target line took what.
 * A posting locks the counters of its source lines before it judges them
 * (`holdProgress`), so two postings that together exceed a line can never
 * both pass, on either dialect.
 */
export async function ensureDocumentTables(db: Database): Promise<void> {
  await db.kysely.schema.createTable('document_progress').ifNotExists()
    .addColumn('source_entity', 'text', (c) => c.notNull())
    .addColumn('source_line_id', 'integer', (c) => c.notNull())
    .addColumn('target_entity', 'text', (c) => c.notNull())
    .addColumn('done', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_progress_pk', ['source_entity', 'source_line_id', 'target_entity'])
    .execute();
  await db.kysely.schema.createTable('document_link').ifNotExists()
    .addColumn('target_entity', 'text', (c) => c.notNull())
    .addColumn('target_line_id', 'integer', (c) => c.notNull())
    .addColumn('source_entity', 'text', (c) => c.notNull())
    .addColumn('source_line_id', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_link_pk', ['target_entity', 'target_line_id'])
    .execute();
  await db.kysely.schema.createIndex('document_link_source').ifNotExists().on('document_link').columns(['source_entity', 'source_line_id']).execute();
}

/** What posted documents of `target` have processed of each source line (scaled integers). */
export async function doneOf(k: Kysely<any>, source: string, target: string, lineIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!lineIds.length) return out;
  const rows = await k.selectFrom('document_progress').select(['source_line_id', 'done'])
    .where('source_entity', '=', source).where('target_entity', '=', target).where('source_line_id', 'in', lineIds).execute();
  for (const r of rows) out.set(Number(r.source_line_id), Number(r.done));
  return out;
}

/**
 * Locks the progress rows of these source lines (made at zero where missing)
 * and answers what each has done. One statement for all the lines of a
 * posting: the no-op upsert takes each row's lock on PostgreSQL, in the order
 * given (sorted by the caller, so two postings over the same lines cannot
 * deadlock), and holds it to the end of the transaction; SQLite runs one
 * writer at a time. So the check that follows cannot be overtaken.
 */
export async function holdProgress(trx: Kysely<any>, source: string, target: string, lineIds: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const batch of inBatches(lineIds, 4)) {
    const rows = await trx.insertInto('document_progress')
      .values(batch.map((id) => ({ source_entity: source, source_line_id: id, target_entity: target, done: 0 })))
      .onConflict((oc) => oc.columns(['source_entity', 'source_line_id', 'target_entity']).doUpdateSet({ done: sql`document_progress.done` }))
      .returning(['source_line_id', 'done'])
      .execute();
    for (const r of rows) out.set(Number(r.source_line_id), Number(r.done));
  }
  return out;
}

/** Adds each amount (negative gives back) to its source line's processed total; answers the totals as written. */
export async function addProgress(trx: Kysely<any>, source: string, target: string, amounts: Map<number, number>): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ids = [...amounts.keys()].sort((a, b) => a - b);
  for (const batch of inBatches(ids, 4)) {
    const rows = await trx.insertInto('document_progress')
      .values(batch.map((id) => ({ source_entity: source, source_line_id: id, target_entity: target, done: amounts.get(id)! })))
      .onConflict((oc) => oc.columns(['source_entity', 'source_line_id', 'target_entity']).doUpdateSet({ done: sql`document_progress.done + excluded.done` }))
      .returning(['source_line_id', 'done'])
      .execute();
    for (const r of rows) out.set(Number(r.source_line_id), Number(r.done));
  }
  return out;
}
