import { sql, type Kysely } from 'kysely';
import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { Database } from '../db/dialect-adapter.ts';
import { inBatches } from '../db/batches.ts';

/**
 * The general ledger summed per day (issue 50 §4: every report's first page under 1 s with 1,000,000 journal
 * lines), kept by the journal writer in the transaction of every entry it writes, the way the stock ledger keeps
 * `stock_movement_day`:
 * - `journal_account_day`: per company, account and `doc_date`, the posted lines' debits and credits (satang, as
 *   the lines store them) and how many lines. The trial balance, the statements and the general ledger's opening
 *   balance read it: two years of a million lines are a few thousand rows. Kept per journal too, so a report can
 *   leave one out (the P&L leaves out the year-end closing entry, journal `closing`).
 * - `journal_party_day`: the same per customer and supplier of the line as well (0 for none), for the receivable
 *   and payable ledgers (balances and ageing per party). Every posted line is in both.
 * Only posted entries count, as in the reports; an entry is written posted (journal-writer.ts) or posted from a
 * draft (a manual voucher, voucher-rules.ts), and a posted entry never changes or goes (it is reversed by another).
 */
export const ACCOUNT_DAY = 'journal_account_day';
export const PARTY_DAY = 'journal_party_day';
const ACCOUNT_KEY: string[] = ['your_company_id', 'account_id', 'journal', 'doc_date'];
const PARTY_KEY: string[] = ['your_company_id', 'account_id', 'customer_id', 'supplier_id', 'doc_date'];

/** One posted line as stored: amounts in satang. */
export interface DayLine { companyId: number; accountId: number; journal: string; date: string; debit: number; credit: number; customerId?: number | null; supplierId?: number | null }

/** The journal's tables, the lines' link to their entry, and the status an entry counts with. */
export interface JournalTables { head: EntitySchema; lines: EntitySchema; parent: string; posted: string }

interface DayRow { your_company_id: number; account_id: number; journal: string; customer_id: number; supplier_id: number; doc_date: string; debit: number; credit: number; line_count: number }

/** The journal's header and lines tables, as its schema names them (none in a test app without the books). */
export function journalTables(registry: Pick<SchemaRegistry, 'get'>, journal: string, posted: string): JournalTables | null {
  const head = registry.get(journal);
  const lines = head?.fields.items?.entity ? registry.get(head.fields.items.entity) : undefined;
  if (!head || !lines?.parent) return null;
  return { head, lines, parent: lines.parent.field, posted };
}

/**
 * Makes the two tables, and fills them from the posted lines when they do not count every one of them: a
 * database from before them, a restore of a backup that brought another ledger, a bulk seed. Counting again
 * at the next start finds them equal, so the fill is not repeated.
 */
export async function ensureJournalDays(db: Database, t: JournalTables | null): Promise<boolean> {
  const k = db.kysely;
  const date = db.adapter.columnType({ type: 'date' } as FieldDef);
  const amounts = (t: ReturnType<typeof k.schema.createTable>) => t
    .addColumn('debit', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('credit', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('line_count', 'bigint', (c) => c.notNull().defaultTo(0));
  await amounts(k.schema.createTable(ACCOUNT_DAY).ifNotExists()
    .addColumn('your_company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('journal', 'varchar(20)', (c) => c.notNull().defaultTo(''))
    .addColumn('doc_date', date, (c) => c.notNull()))
    .addPrimaryKeyConstraint(`${ACCOUNT_DAY}_pk`, ACCOUNT_KEY as never).execute();
  await amounts(k.schema.createTable(PARTY_DAY).ifNotExists()
    .addColumn('your_company_id', 'integer', (c) => c.notNull())
    .addColumn('account_id', 'integer', (c) => c.notNull())
    .addColumn('customer_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('supplier_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('doc_date', date, (c) => c.notNull()))
    .addPrimaryKeyConstraint(`${PARTY_DAY}_pk`, PARTY_KEY as never).execute();
  // the journal is an entity table, made by the schema sync that runs first at start (not in a bare database)
  if (!t || !(await db.adapter.columnNames(k, t.lines.name)).length) return false;
  const posted = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(t.lines.name)} i
    join ${sql.table(t.head.name)} e on e.id = i.${sql.ref(t.parent)} where e.status = ${t.posted}`.execute(k)).rows[0]!.n);
  const counted = async (table: string) => Number((await sql<{ n: number }>`select coalesce(sum(line_count), 0) as n from ${sql.table(table)}`.execute(k)).rows[0]!.n);
  if (posted === await counted(ACCOUNT_DAY) && posted === await counted(PARTY_DAY)) return false;
  await k.transaction().execute((trx) => rebuildJournalDays(trx, t));
  // the planner's statistics of the rows just made (the same statement on both dialects)
  for (const table of [ACCOUNT_DAY, PARTY_DAY]) await sql`analyze ${sql.table(table)}`.execute(k);
  return true;
}

/** Sets both tables from every posted line, in the caller's transaction. */
export async function rebuildJournalDays(k: Kysely<any>, t: JournalTables): Promise<void> {
  const from = sql`from ${sql.table(t.lines.name)} i join ${sql.table(t.head.name)} e on e.id = i.${sql.ref(t.parent)} where e.status = ${t.posted}`;
  await sql`delete from ${sql.table(ACCOUNT_DAY)}`.execute(k);
  await sql`delete from ${sql.table(PARTY_DAY)}`.execute(k);
  await sql`insert into ${sql.table(ACCOUNT_DAY)} (your_company_id, account_id, journal, doc_date, debit, credit, line_count)
    select e.your_company_id, i.account_id, e.journal, e.doc_date, sum(i.debit), sum(i.credit), count(*) ${from}
    group by e.your_company_id, i.account_id, e.journal, e.doc_date`.execute(k);
  await sql`insert into ${sql.table(PARTY_DAY)} (your_company_id, account_id, customer_id, supplier_id, doc_date, debit, credit, line_count)
    select e.your_company_id, i.account_id, coalesce(i.customer_id, 0), coalesce(i.supplier_id, 0), e.doc_date, sum(i.debit), sum(i.credit), count(*) ${from}
    group by e.your_company_id, i.account_id, coalesce(i.customer_id, 0), coalesce(i.supplier_id, 0), e.doc_date`.execute(k);
}

/** Lines summed per key of a table, in key order. */
function summed(lines: DayLine[], byParty: boolean): DayRow[] {
  const sums = new Map<string, DayRow>();
  for (const l of lines) {
    const row = { your_company_id: l.companyId, account_id: l.accountId, journal: byParty ? '' : l.journal, customer_id: byParty ? l.customerId ?? 0 : 0, supplier_id: byParty ? l.supplierId ?? 0 : 0, doc_date: l.date };
    const id = `${row.your_company_id}/${row.account_id}/${row.journal}/${row.customer_id}/${row.supplier_id}/${row.doc_date}`;
    const s = sums.get(id) ?? { ...row, debit: 0, credit: 0, line_count: 0 };
    s.debit += l.debit;
    s.credit += l.credit;
    s.line_count += 1;
    sums.set(id, s);
  }
  // one order for every transaction: two postings over the same rows wait for each other instead of deadlocking
  const cmp = (a: DayRow, b: DayRow) => a.your_company_id - b.your_company_id || a.account_id - b.account_id
    || (a.journal < b.journal ? -1 : a.journal > b.journal ? 1 : 0) || a.customer_id - b.customer_id || a.supplier_id - b.supplier_id || (a.doc_date < b.doc_date ? -1 : a.doc_date > b.doc_date ? 1 : 0);
  return [...sums.values()].sort(cmp);
}

/**
 * Adds posted lines just written to their day rows of both tables, in the writer's transaction. A row is
 * locked from here to the commit (PostgreSQL), so postings of one company, account and day wait for each other
 * from this statement on: the writer calls it last.
 */
export async function addToJournalDays(trx: Kysely<any>, lines: DayLine[]): Promise<void> {
  for (const d of journalDayWrites(lines)) for (const batch of inBatches(d.rows, d.batch)) await d.write(trx, batch).execute();
}

/**
 * The upserts of `addToJournalDays`, unsent: rows and the statement that adds them, for a caller that sends them
 * in one statement with its other writes (PostgreSQL, journal-writer.ts), each `batch` rows at a time otherwise.
 */
export function journalDayWrites(lines: DayLine[]): { rows: object[]; batch: number; write: (qc: Kysely<any>, rows: object[]) => { execute(): Promise<unknown> } }[] {
  if (!lines.length) return [];
  const upsert = (table: string, key: string[]) => (qc: Kysely<any>, rows: object[]) => qc.insertInto(table).values(rows).onConflict((oc) => oc.columns(key).doUpdateSet({
    debit: sql`${sql.ref(`${table}.debit`)} + excluded.debit`,
    credit: sql`${sql.ref(`${table}.credit`)} + excluded.credit`,
    line_count: sql`${sql.ref(`${table}.line_count`)} + excluded.line_count`,
  }));
  return [
    { rows: summed(lines, false).map(({ customer_id: _c, supplier_id: _s, ...r }) => r), batch: ACCOUNT_KEY.length + 3, write: upsert(ACCOUNT_DAY, ACCOUNT_KEY) },
    { rows: summed(lines, true).map(({ journal: _j, ...r }) => r), batch: PARTY_KEY.length + 3, write: upsert(PARTY_DAY, PARTY_KEY) },
  ];
}

/** The stored lines of one posted entry, as the day tables add them (a manual voucher as it posts). */
export async function entryDayLines(trx: Kysely<any>, t: JournalTables, entryId: number): Promise<DayLine[]> {
  const head = await trx.selectFrom(t.head.name).select(['your_company_id', 'journal', 'doc_date']).where('id', '=', entryId).executeTakeFirstOrThrow();
  const rows = await trx.selectFrom(t.lines.name).select(['account_id', 'debit', 'credit', 'customer_id', 'supplier_id']).where(t.parent, '=', entryId).execute();
  const date = dayText(head.doc_date);
  return rows.map((r) => ({ companyId: Number(head.your_company_id), accountId: Number(r.account_id), journal: String(head.journal), date, debit: Number(r.debit ?? 0), credit: Number(r.credit ?? 0), customerId: r.customer_id === null ? null : Number(r.customer_id), supplierId: r.supplier_id === null ? null : Number(r.supplier_id) }));
}

/**
 * A date as the entry stores it: the text given (each dialect stores it in the day rows as it does in the entry:
 * SQLite the text itself, PostgreSQL the date it reads), a Date as its UTC day.
 */
export function dayText(v: unknown): string {
  return v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
}
