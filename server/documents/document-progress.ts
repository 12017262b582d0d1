import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/dialect-adapter.ts';

/**
 * How much of each source line posted documents of one kind have processed
 * (delivered, billed …), as a scaled integer, and which target line took what.
 * The counter is raised with a conditional update, so two postings that
 * together exceed a line can never both pass, on either dialect.
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

export interface ProgressKey {
  source: string;
  sourceLineId: number;
  target: string;
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

/** Adds `amount` to a source line's processed total unless it would pass `limit`; false when it would. */
export async function takeProgress(trx: Kysely<any>, key: ProgressKey, amount: number, limit: number): Promise<boolean> {
  await trx.insertInto('document_progress')
    .values({ source_entity: key.source, source_line_id: key.sourceLineId, target_entity: key.target, done: 0 })
    .onConflict((oc) => oc.columns(['source_entity', 'source_line_id', 'target_entity']).doNothing())
    .execute();
  const res = await trx.updateTable('document_progress')
    .set({ done: sql`done + ${amount}` })
    .where('source_entity', '=', key.source).where('source_line_id', '=', key.sourceLineId).where('target_entity', '=', key.target)
    .where(sql<boolean>`done + ${amount} <= ${limit}`)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

export async function giveBackProgress(trx: Kysely<any>, key: ProgressKey, amount: number): Promise<void> {
  await trx.updateTable('document_progress')
    .set({ done: sql`done - ${amount}` })
    .where('source_entity', '=', key.source).where('source_line_id', '=', key.sourceLineId).where('target_entity', '=', key.target)
    .execute();
}
