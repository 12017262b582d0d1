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

/**
 * Lines without their copy (a database from before it, whose columns the schema sync has just added; a restore of
 * an older backup) take it from their entries, in one statement. Answers how many lines were filled; a start
 * that finds none writes nothing.
 */
export async function fillEntryCopies(db: Database, t: JournalTables | null): Promise<number> {
  const k = db.kysely;
  if (!t) return 0;
  const fields = copiedBy(t.lines);
  if (!fields.length || !(await db.adapter.columnNames(k, t.lines.name)).length) return 0;
  const missing = sql.join(fields.map((f) => sql`${sql.ref(`${t.lines.name}.${f}`)} is null`), sql` or `);
  const any = await sql`select 1 as one from ${sql.table(t.lines.name)} where ${missing} limit 1`.execute(k);
  if (!any.rows.length) return 0;
  // UPDATE … FROM: PostgreSQL, and SQLite since 3.33; one pass over the lines instead of a subquery per column
  const set = sql.join(fields.map((f) => sql`${sql.id(f)} = e.${sql.id(f)}`), sql`, `);
  const res = await sql`update ${sql.table(t.lines.name)} set ${set} from ${sql.table(t.head.name)} e
    where e.id = ${sql.ref(`${t.lines.name}.${t.parent}`)} and (${missing})`.execute(k);
  await sql`analyze ${sql.table(t.lines.name)}`.execute(k);
  return Number(res.numAffectedRows ?? 0);
}
