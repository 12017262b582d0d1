import type { Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { EntitySelector } from '../crud/write-events.ts';
import { AppError } from '../errors/app-error.ts';
import { isEmpty } from '../crud/record-values.ts';
import { chartOf, journalOf, POSTED, unbalanced } from './journal-writer.ts';
import { addToJournalDays, entryDayLines, journalTables } from './journal-days.ts';
import { CLOSING_JOURNAL } from './year-close.ts';
import { COPIED_FIELDS, copyEntryToLines } from './entry-copy.ts';

type Row = Record<string, unknown>;
const satang = (v: unknown) => (isEmpty(v) ? 0 : Math.round(Number(v) * 100));

/**
 * A voucher typed by hand (a journal_entry with no source) posts only when every line has a debit or a credit,
 * never both and never negative, on an account that is not a heading, and its debits equal its credits
 * (400 JOURNAL_LINE_INVALID / JOURNAL_UNBALANCED); its totals are stored as it posts.
 */
async function checkVoucher(trx: Kysely<any>, service: EntityService, id: number): Promise<void> {
  const doc = await service.readWhole(trx, journalOf(service.registry), id);
  const lines = (doc.items as Row[] | undefined) ?? [];
  if (lines.length < 2) throw new AppError('JOURNAL_LINE_INVALID', 'an entry has at least two lines: a debit and a credit', { field: 'items' }, { reason: 'too_few' });
  // the year-end closing entry is written by closing the year (year-close.ts), and the P&L leaves that journal out
  if (doc.journal === CLOSING_JOURNAL) throw new AppError('JOURNAL_LINE_INVALID', 'the closing journal takes only the year-end closing entry: close the year instead (POST /api/ledger/close-year)', { field: 'journal' }, { reason: 'closing_journal' });
  const accountIds = [...new Set(lines.map((l) => Number(l.account_id)))];
  const accounts = new Map((await trx.selectFrom(chartOf(service.registry)).select(['id', 'code', 'is_group']).where('id', 'in', accountIds).execute()).map((a) => [Number(a.id), a]));
  const amounts = lines.map((l, i) => {
    const debit = satang(l.debit);
    const credit = satang(l.credit);
    const at = { field: `items.${i}`, line: i + 1 };
    if (debit < 0 || credit < 0) throw new AppError('JOURNAL_LINE_INVALID', `line ${i + 1} has a negative amount: enter it on the other side`, at, { reason: 'negative', line: i + 1 });
    if ((debit > 0) === (credit > 0)) throw new AppError('JOURNAL_LINE_INVALID', `line ${i + 1} must have a debit or a credit, not ${debit > 0 ? 'both' : 'neither'}`, at, { reason: 'one_side', line: i + 1 });
    const account = accounts.get(Number(l.account_id));
    if (account && Number(account.is_group) === 1) throw new AppError('JOURNAL_LINE_INVALID', `line ${i + 1}: account ${account.code} is a heading, which is not posted to; choose an account under it`, at, { reason: 'group_account', line: i + 1, account: String(account.code) });
    return { debit, credit };
  });
  const debit = amounts.reduce((s, a) => s + a.debit, 0);
  const credit = amounts.reduce((s, a) => s + a.credit, 0);
  if (debit !== credit) throw unbalanced(amounts);
  await trx.updateTable(journalOf(service.registry)).set({ total_debit: debit, total_credit: credit }).where('id', '=', id).execute();
}

/**
 * Manual vouchers are checked when posted; entries written by the engine (they name a source document, or
 * reverse another) are never edited or deleted (409 JOURNAL_AUTOMATIC): a document is corrected by cancelling
 * it, which reverses its entry.
 */
/** The journal's own entity (`"holds": "journalEntries"`): its vouchers typed by hand. */
const isJournal: EntitySelector = (entity) => entity.holds === 'journalEntries';

export function installVoucherRules(service: EntityService): void {
  service.onAction(async (trx, e) => {
    if (!isEmpty(e.before.source_entity) || !isEmpty(e.before.reverses_id)) throw automatic(e.before);
    if (e.action === (e.entity.document?.postAction ?? 'post')) {
      await checkVoucher(trx, service, e.id);
      // it counts in the books from now: its lines join the ledger's day summaries in this transaction
      const tables = journalTables(service.registry, journalOf(service.registry), POSTED);
      if (tables) await addToJournalDays(trx, await entryDayLines(trx, tables, e.id));
      e.recordWritten = true;
    }
  }, isJournal);
  // before the workflow's lock is judged, so an edit of an automatic entry is told why (a delete answers DOCUMENT_LOCKED: posted entries are locked)
  service.onUpdateDefaults(async (entity, id) => {
    if (entity.name !== service.registry.holder('journalEntries')?.name) return;
    const before = await service.db.kysely.selectFrom(journalOf(service.registry)).select(['id', 'doc_no', 'source_entity', 'source_id', 'source_doc_no', 'reverses_id']).where('id', '=', id).executeTakeFirst();
    if (before && (!isEmpty(before.source_entity) || !isEmpty(before.reverses_id))) throw automatic(before);
  });
  service.onWrite(async (_trx, e) => {
    if (e.action === 'create' || !e.before) return;
    if (!isEmpty(e.before.source_entity) || !isEmpty(e.before.reverses_id)) throw automatic(e.before);
    if (e.before.status === POSTED) throw new AppError('JOURNAL_AUTOMATIC', `entry ${String(e.before.doc_no ?? e.id)} is posted: reverse it with another voucher instead of changing it`, { id: e.id }, { reason: 'posted', number: String(e.before.doc_no ?? e.id) });
  }, isJournal);
  // a voucher's lines carry its date and company (entry-copy.ts): set again after every create and update, which may
  // change either, or the lines; the answer's lines show them as stored
  service.onWrite(async (trx, e) => {
    // a workflow action (posting) writes no lines: only one that moved the date or company (a transition's fields) needs it
    if (e.action === 'delete' || (e.workflowAction && COPIED_FIELDS.every((f) => e.before?.[f] === e.after?.[f]))) return;
    const tables = journalTables(service.registry, journalOf(service.registry), POSTED);
    if (!tables) return;
    await copyEntryToLines(trx, tables, e.id);
    const lines = e.after?.[tables.head.document?.lines ?? 'items'];
    if (Array.isArray(lines)) for (const l of lines as Row[]) for (const f of COPIED_FIELDS) if (f in l) l[f] = e.after![f] ?? null;
  }, isJournal);
}

function automatic(before: Row): AppError {
  const number = String(before.doc_no ?? before.id);
  return new AppError('JOURNAL_AUTOMATIC', `entry ${number} was written by posting ${String(before.source_doc_no ?? 'a document')}: it cannot be changed; cancel that document to reverse it`,
    { id: before.id, source_entity: before.source_entity ?? null, source_id: before.source_id ?? null }, { number, source: String(before.source_doc_no ?? '') });
}
