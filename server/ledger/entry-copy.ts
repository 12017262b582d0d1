import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { Database } from '../db/dialect-adapter.ts';
import type { JournalTables } from './journal-days.ts';

type Row = Record<string, unknown>;

/**
 * The entry's fields every journal line carries a copy of (issue 50 §4): the general ledger's page reads an
 * account's lines in date order through one index on the lines (account, date, entry, line), which the lines can
 * only give when they hold the date; the company is copied with it so the page filters a company on the line.
 * Read-only on the lines (a client never sends them); written by the journal writer, by every create and update of
 * an entry through the generic service (a draft voucher whose date or company changes), and filled at start for
 * lines written before the copy (fillEntryCopies). Only the fields the lines' schema declares are copied.
 */
export const COPIED_FIELDS = ['doc_date', 'your_company_id'] as const;

const copiedBy = (lines: EntitySchema) => COPIED_FIELDS.filter((f) => lines.fields[f]);

/** The copy of an entry's header values for its lines (header values as the writer holds them, before encoding). */
export function entryCopy(lines: EntitySchema, header: Row): Row {
  return Object.fromEntries(copiedBy(lines).map((f) => [f, header[f] ?? null]));
}

/** Sets one entry's lines' copies from the entry as stored, in the caller's transaction (after its lines are written). */
export async function copyEntryToLines(trx: Kysely<any>, t: JournalTables, entryId: number): Promise<void> {
  const fields = copiedBy(t.lines);
  if (!fields.length) return;
  const head = await trx.selectFrom(t.head.name).select(fields).where('id', '=', entryId).executeTakeFirst();
  if (!head) return;
  // values as stored in the entry: the same column types on the lines, so no encoding between them
  await trx.updateTable(t.lines.name).set(Object.fromEntries(fields.map((f) => [f, head[f] ?? null]))).where(t.parent, '=', entryId).execute();
}

/** Lines per statement of the fill: each statement well inside PostgreSQL's statement timeout (PG_STATEMENT_TIMEOUT_MS, 30 s). */
const FILL_BATCH = 20_000;

/**
 * Lines without their copy (a database from before it, whose columns the schema sync has just added; a restore of
 * an older backup) take it from their entries, a range of line ids per statement (one statement over a million
 * lines ran past PostgreSQL's statement timeout on a busy machine). Answers how many lines were filled; a start
 * that finds none writes nothing.
 */
export async function fillEntryCopies(db: Database, t: JournalTables | null, batch = FILL_BATCH): Promise<number> {
  const k = db.kysely;
  if (!t) return 0;
  const fields = copiedBy(t.lines);
  if (!fields.length || !(await db.adapter.columnNames(k, t.lines.name)).length) return 0;
  const missing = sql.join(fields.map((f) => sql`${sql.ref(`${t.lines.name}.${f}`)} is null`), sql` or `);
  const range = (await sql<{ low: number | null; high: number | null }>`select min(id) as low, max(id) as high from ${sql.table(t.lines.name)} where ${missing}`.execute(k)).rows[0];
  if (range?.low === null || range?.low === undefined) return 0;
  // UPDATE … FROM: PostgreSQL, and SQLite since 3.33; one pass over the lines instead of a subquery per column
  const set = sql.join(fields.map((f) => sql`${sql.id(f)} = e.${sql.id(f)}`), sql`, `);
  const id = sql.ref(`${t.lines.name}.id`);
  let filled = 0;
  for (let after = Number(range.low) - 1; after < Number(range.high); after += batch) {
    const res = await sql`update ${sql.table(t.lines.name)} set ${set} from ${sql.table(t.head.name)} e
      where e.id = ${sql.ref(`${t.lines.name}.${t.parent}`)} and ${id} > ${after} and ${id} <= ${after + batch} and (${missing})`.execute(k);
    filled += Number(res.numAffectedRows ?? 0);
  }
  await sql`analyze ${sql.table(t.lines.name)}`.execute(k);
  return filled;
}
