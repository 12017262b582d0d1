import { sql, type Kysely } from 'kysely';
import type { SchemaRegistry } from '../../engine/schema/schema-registry.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { columnDefs, toDb } from '../db/field-codec.ts';
import { assignNumber, numberInStatement, tokenValues } from '../crud/numbering-series.ts';
import { writesRideOneStatement, type NamedRider } from '../db/riding-statements.ts';
import { inBatches } from '../db/batches.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { AppError } from '../errors/app-error.ts';
import { refuseClosedPeriod } from '../documents/closed-books.ts';
import { dayText, journalDayWrites } from './journal-days.ts';
import { entryCopy } from './entry-copy.ts';

type Row = Record<string, unknown>;

/** The entity of the books; the names of its header and lines tables come from its schema. */
/** The journal's entity (`"holds": "journalEntries"`), found through the schemas. */
export const journalOf = (registry: SchemaRegistry): string => registry.held('journalEntries');
/** The chart of accounts' entity (`"holds": "chartOfAccounts"`). */
export const chartOf = (registry: SchemaRegistry): string => registry.held('chartOfAccounts');
/** The status an entry counts in the books with (reports read only these). */
export const POSTED = 'posted';
/** Differences of at most this many satang, left by VAT rounding between a document's figures, go to the `rounding` account. */
const ROUNDING_LIMIT = 100;

/** One line as written: amounts in satang, each line one side only. */
export interface EntryLine { accountId: number; debit: number; credit: number; description?: string | null; customerId?: number | null; supplierId?: number | null }

export interface EntryInput {
  companyId: number;
  date: string;
  journal: string;
  sourceEntity: string | null;
  sourceId: number | null;
  sourceDocNo: string | null;
  memo: string;
  reversesId?: number | null;
  lines: EntryLine[];
}

/**
 * A line's party fields for a party of `kind` (the entity a document's party field links to): the journal line's
 * `customer_id` when that links to `kind`, its `supplier_id` likewise, found through the journal's schema.
 */
export function partyOf(service: EntityService, kind: string | undefined, party: number | null): { customerId: number | null; supplierId: number | null } {
  const head = service.entity(journalOf(service.registry));
  const lines = service.entity(head.fields[head.document?.lines ?? 'items']!.entity!);
  return { customerId: kind && lines.fields.customer_id?.entity === kind ? party : null, supplierId: kind && lines.fields.supplier_id?.entity === kind ? party : null };
}

/** The account id of each role (account.role), read in the caller's transaction. */
export async function roleAccounts(trx: Kysely<any>, service: EntityService): Promise<Map<string, number>> {
  const rows = await trx.selectFrom(chartOf(service.registry)).select(['id', 'role']).where('role', 'is not', null).execute();
  return new Map(rows.map((r) => [String(r.role), Number(r.id)]));
}

export function accountOfRole(roles: Map<string, number>, role: string): number {
  const id = roles.get(role);
  if (id === undefined) throw new AppError('ACCOUNT_ROLE_MISSING', `no account of the chart has the role "${role}": give that role to an account (chart of accounts) and post again`, { role }, { role });
  return id;
}

/**
 * Lines of the same account and party netted into one line on the side its net falls (a POS sale's cash paid and
 * change given are one cash debit), zero lines dropped; a difference up to ROUNDING_LIMIT satang balanced on the
 * `rounding` account, a larger one refused.
 */
export function balanced(lines: EntryLine[], roles: Map<string, number>): EntryLine[] {
  const merged = new Map<string, EntryLine & { net: number }>();
  for (const l of lines) {
    const key = `${l.accountId}/${l.customerId ?? ''}/${l.supplierId ?? ''}`;
    const m = merged.get(key) ?? { ...l, debit: 0, credit: 0, net: 0 };
    m.net += l.debit - l.credit;
    merged.set(key, m);
  }
  const out: EntryLine[] = [...merged.values()].filter((m) => m.net !== 0)
    .map(({ net, ...l }) => ({ ...l, debit: net > 0 ? net : 0, credit: net < 0 ? -net : 0 }));
  const diff = out.reduce((s, l) => s + l.debit - l.credit, 0);
  if (diff !== 0) {
    if (Math.abs(diff) > ROUNDING_LIMIT) throw unbalanced(out);
    out.push({ accountId: accountOfRole(roles, 'rounding'), debit: diff < 0 ? -diff : 0, credit: diff > 0 ? diff : 0, description: 'ปัดเศษ' });
  }
  return out;
}

const baht = (satang: number) => (satang / 100).toFixed(2);

/** 400 JOURNAL_UNBALANCED naming both totals and the difference. */
export function unbalanced(lines: { debit: number; credit: number }[]): AppError {
  const debit = lines.reduce((s, l) => s + l.debit, 0);
  const credit = lines.reduce((s, l) => s + l.credit, 0);
  return new AppError('JOURNAL_UNBALANCED', `debits ${baht(debit)} and credits ${baht(credit)} differ by ${baht(Math.abs(debit - credit))}: an entry's debits must equal its credits`,
    { debit: baht(debit), credit: baht(credit), difference: baht(debit - credit) }, { debit: baht(debit), credit: baht(credit), difference: baht(Math.abs(debit - credit)) });
}

/** What an entry of a company needs from the database besides its lines, read before a posting's stock statements. */
export interface EntryPrepared {
  /** The refusal (409 PERIOD_CLOSED) an entry of the company on that date meets, thrown only if one is written. */
  refusal: AppError | null;
  /** The journal number pattern's field values (the company's code). */
  tokens: Record<string, string>;
}

export interface EntryOptions {
  /** The entry of a document posted before the ledger existed (ledger-backfill.ts): it records what a closed period already holds. */
  history?: boolean;
  /** Read by prepareEntry earlier in the transaction. */
  prepared?: EntryPrepared;
}

/**
 * Reads what an entry of the company dated `date` needs besides its lines: for a posting, whose transaction then
 * locks the stock balance rows other postings queue for, so that only the entry's writes run while it holds them.
 */
export async function prepareEntry(trx: Kysely<any>, service: EntityService, companyId: number, date: string, opts: { history?: boolean } = {}): Promise<EntryPrepared> {
  const head = service.entity(journalOf(service.registry));
  const header = { doc_date: date, your_company_id: companyId };
  let refusal: AppError | null = null;
  if (!opts.history) {
    try {
      await refuseClosedPeriod(trx, service, head, header);
    } catch (err) {
      if (!(err instanceof AppError) || err.code !== 'PERIOD_CLOSED') throw err;
      refusal = err;
    }
  }
  return { refusal, tokens: await tokenValues(trx, head, header) };
}

/**
 * Writes a posted entry and its lines in the caller's transaction, numbered in the journal's series, and adds
 * the lines to the ledger's day summaries (journal-days.ts).
 * Refused (409 PERIOD_CLOSED) when dated on or before its company's closed books, except `history`: the entry
 * of a document posted before the ledger existed (ledger-backfill.ts).
 */
export async function writeEntry(trx: Kysely<any>, service: EntityService, input: EntryInput, opts: EntryOptions = {}): Promise<number> {
  const w = await entryWrite(trx, service, input, opts);
  if (writesRideOneStatement(trx) && w.lines.length <= ONE_STATEMENT_LINES) return writeInOneStatement(trx, w);
  const inserted = await trx.insertInto(w.head.name).values(w.row).returning('id').executeTakeFirstOrThrow();
  const id = Number(inserted.id);
  for (const batch of inBatches(w.lines, Object.keys(w.lines[0] ?? {}).length + 1)) await trx.insertInto(w.linesTable).values(batch.map((r) => ({ ...r, [w.parentField]: id }))).execute();
  for (const d of w.days) for (const batch of inBatches(d.rows, d.batch)) await d.write(trx, batch).execute();
  // the number last: its counter row is the one every entry of the company and month locks until the commit
  await assignNumber(trx, w.head, id, w.header, w.tokens);
  return id;
}

/** An entry as its statements write it: the header row, the lines (without their entry's id), the day rows, the number's tokens. */
interface EntryWrite {
  head: EntitySchema; linesTable: string; parentField: string;
  header: Row; row: Row; lines: Row[]; days: ReturnType<typeof journalDayWrites>; tokens: Record<string, string> | undefined;
}

async function entryWrite(trx: Kysely<any>, service: EntityService, input: EntryInput, opts: EntryOptions): Promise<EntryWrite> {
  const head = service.entity(journalOf(service.registry));
  const header: Row = {
    doc_date: input.date, your_company_id: input.companyId, journal: input.journal, source_entity: input.sourceEntity, source_id: input.sourceId,
    source_doc_no: input.sourceDocNo, memo: input.memo, reverses_id: input.reversesId ?? null, status: POSTED,
    total_debit: input.lines.reduce((s, l) => s + l.debit, 0) / 100, total_credit: input.lines.reduce((s, l) => s + l.credit, 0) / 100,
  };
  // the entries of documents posted before the ledger record what the closed period already holds
  if (opts.prepared?.refusal) throw opts.prepared.refusal;
  if (!opts.history && !opts.prepared) await refuseClosedPeriod(trx, service, head, header);
  const now = new Date().toISOString();
  const stamp = { created_at: now, updated_at: now, created_by: null, updated_by: null };
  const linesEntity = service.entity(head.fields.items!.entity!);
  // each line carries its entry's date and company (entry-copy.ts): the general ledger's index orders them
  const copy = entryCopy(linesEntity, header);
  const lines: Row[] = input.lines.map((l, i) => ({
    ...encode(linesEntity, { account_id: l.accountId, debit: l.debit / 100, credit: l.credit / 100, description: l.description ?? null, customer_id: l.customerId ?? null, supplier_id: l.supplierId ?? null, ...copy }),
    line_no: i + 1, ...stamp,
  }));
  // the day summaries the ledger reports read (journal-days.ts), from the amounts as stored
  const date = dayText(header.doc_date);
  const days = journalDayWrites(lines.map((r) => ({ companyId: input.companyId, accountId: Number(r.account_id), journal: String(header.journal), date, debit: Number(r.debit), credit: Number(r.credit), customerId: r.customer_id as number | null, supplierId: r.supplier_id as number | null })));
  const tokens = writesRideOneStatement(trx) ? opts.prepared?.tokens ?? await tokenValues(trx, head, header) : opts.prepared?.tokens;
  return { head, linesTable: linesEntity.name, parentField: linesEntity.parent!.field, header, row: { ...encode(head, header), ...stamp }, lines, days, tokens };
}

/** More lines than this (a year-end closing of a large chart) are written a statement each way; postings have a few. */
const ONE_STATEMENT_LINES = 500;

/**
 * PostgreSQL: the entry, its lines, its day summaries and its number in one statement (issue 49: a posting writes
 * its entry while it holds the stock balance rows other postings wait for, and each statement is a round trip
 * the holder spends on a busy server; the counter row every entry of the company and month locks is taken in the
 * same statement, so it too is held for that one round trip and the commit). SQLite sends them one by one: its
 * round trips are function calls, and it has no data-modifying WITH.
 */
async function writeInOneStatement(trx: Kysely<any>, w: EntryWrite): Promise<number> {
  const { rider, rode } = entryStatements(w, '');
  let q: any = trx;
  for (const [name, build] of rider.ctes) q = q.with(name, build);
  const made = await q.selectNoFrom(Object.entries(rider.reads).map(([alias, v]) => v.as(alias))).executeTakeFirstOrThrow();
  return rode(trx, made);
}

/**
 * The entry's statements as CTEs named with `prefix` (the counter `c`, the entry `e`, its lines `l`, the day rows
 * `d0`, `d1`) and the scalars to read back (its id, number and the counter's value), and what to do with them:
 * a number drawn that an imported entry already has is passed over in statements of their own.
 */
function entryStatements(w: EntryWrite, prefix: string): { rider: NamedRider; rode: (trx: Kysely<any>, reads: Record<string, unknown>) => Promise<number> } {
  const field = w.head.numbering!.field;
  const n = numberInStatement(w.head, w.header, w.tokens ?? {});
  const [c, e, l] = [`${prefix}c`, `${prefix}e`, `${prefix}l`];
  const ctes: NamedRider['ctes'] = [
    [c, (qc) => n.counter(qc)],
    [e, (qc) => qc.insertInto(w.head.name).values({ ...w.row, [field]: n.number(sql`(select value from ${sql.table(c)})`) }).returning(['id', field])],
  ];
  if (w.lines.length) ctes.push([l, (qc) => qc.insertInto(w.linesTable).values(w.lines.map((r) => ({ ...r, [w.parentField]: sql`(select id from ${sql.table(e)})` })))]);
  for (const [j, d] of w.days.entries()) if (d.rows.length) ctes.push([`${prefix}d${j}`, (qc) => d.write(qc, d.rows)]);
  const reads = {
    [`${prefix}id`]: sql`(select id from ${sql.table(e)})`,
    [`${prefix}no`]: sql`(select ${sql.ref(field)} from ${sql.table(e)})`,
    [`${prefix}seq`]: sql`(select value from ${sql.table(c)})`,
  };
  return {
    rider: { ctes, reads },
    rode: async (trx, got) => {
      const id = Number(got[`${prefix}id`]);
      // the number drawn was taken by a row imported with its own: past the taken ones, in statements of their own
      if (got[`${prefix}no`] === null) await n.pastTaken(trx, id, Number(got[`${prefix}seq`]));
      return id;
    },
  };
}

/**
 * The entry as statements that ride with another (PostgreSQL: the posting's last stock statement,
 * journal-posting.ts), named with `prefix`; null when it has too many lines to ride. `rode` takes what that
 * statement answered and answers the entry's id.
 */
export async function entryRider(trx: Kysely<any>, service: EntityService, input: EntryInput, opts: EntryOptions, prefix: string): Promise<{ rider: NamedRider; rode: (reads: Record<string, unknown>) => Promise<number> } | null> {
  const w = await entryWrite(trx, service, input, opts);
  if (w.lines.length > ONE_STATEMENT_LINES) return null;
  const s = entryStatements(w, prefix);
  return { rider: s.rider, rode: (reads) => s.rode(trx, reads) };
}

function encode(entity: EntitySchema, row: Row): Row {
  const defs = columnDefs(entity);
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) { const f = defs.get(k); out[k] = f ? toDb(f, v) : v; }
  return out;
}

/**
 * The reversing entries of a document's entries that are not reversed yet, dated `date` (the cancel date):
 * each line's debit and credit swapped. The originals stay as they were.
 */
export async function reverseEntriesOf(trx: Kysely<any>, service: EntityService, sourceEntity: string, sourceId: number, date: string, memo: string, extra: EntryLine[] | Map<number, EntryLine[]> = []): Promise<number> {
  // extra lines go to the first reversal (of each company's first entry, when given per company)
  const pending = extra instanceof Map ? new Map(extra) : null;
  const head = service.entity(journalOf(service.registry));
  const linesEntity = service.entity(head.fields.items!.entity!);
  const parentField = linesEntity.parent!.field;
  // in company order, as a posting writes them (journal-posting.ts plannedEntries): each reversal locks its company's counter
  const entries = await trx.selectFrom(head.name).selectAll().where('source_entity', '=', sourceEntity).where('source_id', '=', sourceId).where('status', '=', POSTED).orderBy('your_company_id').orderBy('id').execute();
  const reversed = new Set(entries.map((e) => e.reverses_id).filter((v) => v !== null && v !== undefined).map(Number));
  let count = 0;
  const extraFor = (company: number): EntryLine[] => {
    if (!pending) return count ? [] : (extra as EntryLine[]);
    const lines = pending.get(company) ?? [];
    pending.delete(company);
    return lines;
  };
  for (const e of entries) {
    if (e.reverses_id !== null && e.reverses_id !== undefined) continue;
    if (reversed.has(Number(e.id))) continue;
    const lines = await trx.selectFrom(linesEntity.name).selectAll().where(parentField, '=', e.id).orderBy('line_no').execute();
    await writeEntry(trx, service, {
      companyId: Number(e.your_company_id), date: date > String(e.doc_date).slice(0, 10) ? date : String(e.doc_date).slice(0, 10), journal: String(e.journal),
      sourceEntity, sourceId, sourceDocNo: (e.source_doc_no as string | null) ?? null, memo, reversesId: Number(e.id),
      lines: [...lines.map((l) => ({ accountId: Number(l.account_id), debit: Number(l.credit), credit: Number(l.debit), description: l.description as string | null, customerId: l.customer_id as number | null, supplierId: l.supplier_id as number | null })), ...extraFor(Number(e.your_company_id))],
    });
    count++;
  }
  return count;
}
