import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { AppError } from '../errors/app-error.ts';
import { readForUpdate } from '../db/dialect-sql.ts';
import { isEmpty } from '../crud/record-values.ts';
import { BOOKS_CLOSED_FIELD } from '../documents/closed-books.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { journalOf, POSTED, accountOfRole, roleAccounts, writeEntry, type EntryLine } from './journal-writer.ts';

type Row = Record<string, unknown>;

/** The account types whose balances a year's closing entry moves to retained earnings. */
const PROFIT_TYPES = ['income', 'expense'];
const RETAINED = 'retained_earnings';
/** The journal of closing entries: the profit and loss statement leaves it out (it would show a closed year at zero). */
export const CLOSING_JOURNAL = 'closing';

/** The books' entities as the journal's schema names them: its lines, the account and the company they link to. */
function booksOf(service: EntityService) {
  const head = service.entity(journalOf(service.registry));
  const lines = service.entity(head.fields.items!.entity!);
  const companyField = head.access!.companyField!;
  return { head, lines, parentField: lines.parent!.field, account: lines.fields.account_id!.entity!, companyField, company: service.entity(head.fields[companyField]!.entity!) };
}

function refused(reason: string, message: string, params: Record<string, string | number>): AppError {
  return new AppError('YEAR_CLOSE_REFUSED', message, { reason, ...params }, { reason, ...params });
}

function readBody(raw: unknown): { company: number; year: number } {
  const body = (raw ?? {}) as Row;
  const fields: { field: string; code: string; message: string }[] = [];
  const company = Number(body.company);
  const year = Number(body.year);
  if (!Number.isInteger(company) || company <= 0) fields.push({ field: 'company', code: 'required', message: 'is required: the id of the company whose year is closed' });
  if (!Number.isInteger(year) || year < 1900 || year > 9999) fields.push({ field: 'year', code: 'required', message: 'is required: the year (Christian era) to close, e.g. 2025' });
  if (fields.length) throw new AppError('VALIDATION_FAILED', 'Send {company, year}', { fields });
  return { company, year };
}

/**
 * The balances of income and expense accounts of a company over a date range (satang, debit positive), per account.
 */
async function profitBalances(trx: Kysely<any>, service: EntityService, company: number, from: string | null, to: string): Promise<Map<number, number>> {
  const b = booksOf(service);
  let q = trx.selectFrom(`${b.lines.name} as l`).innerJoin(`${b.head.name} as e`, 'e.id', `l.${b.parentField}`).innerJoin(`${b.account} as a`, 'a.id', 'l.account_id')
    .select(['l.account_id as account', sql<number>`sum(l.debit) - sum(l.credit)`.as('net')])
    .where('e.status', '=', POSTED).where(`e.${b.companyField}`, '=', company).where('a.account_type', 'in', PROFIT_TYPES).where('e.doc_date', '<=', to);
  if (from) q = q.where('e.doc_date', '>=', from);
  const rows = await q.groupBy('l.account_id').execute();
  return new Map(rows.map((r) => [Number(r.account), Number(r.net)] as [number, number]).filter(([, n]) => n !== 0));
}

/**
 * Closes a company's financial year (a calendar year) for the accountant (issue 50 §3, docs/accounting.md "Closing a
 * year"): one closing entry dated 31 December moves every income and expense balance of the year to the
 * `retained_earnings` role account, and the company's books are closed until that day. Refused (409
 * YEAR_CLOSE_REFUSED) when the year is closed already, has not ended, or an earlier year still has profit and loss
 * balances (it must be closed first).
 */
export async function closeYear(service: EntityService, raw: unknown, ctx: RequestContext): Promise<Row> {
  const b = booksOf(service);
  // the accountant who closes months (edit on the company's closing date) and writes vouchers
  for (const entity of [b.company, b.head]) service.policy.assertAllowed(ctx, entity, 'update');
  const { company, year } = readBody(raw);
  const before = await service.get(b.company.name, company, ctx); // 404 for a company the caller may not see
  service.policy.assertWritableRow(ctx, b.company, before, 'update');
  service.policy.assertFieldWrites(ctx, b.company, before, [BOOKS_CLOSED_FIELD]);
  const [start, end] = [`${year}-01-01`, `${year}-12-31`];
  const today = businessToday(businessClock.now(), businessClock.timeZone);
  if (end >= today) throw refused('not_ended', `${year} has not ended yet (today is ${today}): a year is closed after its last day`, { year, today });
  return service.transaction(b.head, async (trx: Kysely<any>) => {
    // one close at a time per company: the second waits here, then finds the first's entry
    const locked = await readForUpdate(trx, trx.selectFrom(b.company.name).selectAll().where('id', '=', company)).executeTakeFirstOrThrow();
    const done = await trx.selectFrom(b.head.name).select(['id', 'doc_no']).where('source_entity', '=', b.company.name).where('source_id', '=', company)
      .where('doc_date', '=', end).where('journal', '=', CLOSING_JOURNAL).where('status', '=', POSTED).where('reverses_id', 'is', null).executeTakeFirst();
    if (done) throw refused('already_closed', `${year} is closed already (entry ${String(done.doc_no)})`, { year, number: String(done.doc_no) });
    if ((await profitBalances(trx, service, company, null, `${year - 1}-12-31`)).size) {
      throw refused('earlier_year_open', `a year before ${year} still has income or expense balances: close it first`, { year });
    }
    const balances = await profitBalances(trx, service, company, start, end);
    const roles = await roleAccounts(trx, service);
    const lines: EntryLine[] = [...balances].map(([accountId, net]) => ({ accountId, debit: net < 0 ? -net : 0, credit: net > 0 ? net : 0, description: `ปิดบัญชีเข้ากำไร(ขาดทุน)สะสม ปี ${year}` }));
    const loss = [...balances.values()].reduce((s, n) => s + n, 0); // expenses over income: a loss
    if (loss !== 0) lines.push({ accountId: accountOfRole(roles, RETAINED), debit: loss > 0 ? loss : 0, credit: loss < 0 ? -loss : 0, description: loss < 0 ? `กำไรสุทธิปี ${year}` : `ขาดทุนสุทธิปี ${year}` });
    const number = String(locked.code ?? company);
    // the closing entry is the act of closing: it is written even when a month closing reached the year's end already
    const id = await writeEntry(trx, service, {
      companyId: company, date: end, journal: CLOSING_JOURNAL, sourceEntity: b.company.name, sourceId: company, sourceDocNo: `${number} ${year}`,
      memo: `ปิดบัญชีสิ้นปี ${year}: โอนรายได้และค่าใช้จ่ายเข้ากำไร(ขาดทุน)สะสม`, lines,
    }, { history: true });
    const closed = isEmpty(locked[BOOKS_CLOSED_FIELD]) || String(locked[BOOKS_CLOSED_FIELD]) < end ? end : String(locked[BOOKS_CLOSED_FIELD]);
    if (closed !== locked[BOOKS_CLOSED_FIELD]) {
      const stamp = { updated_at: new Date().toISOString(), updated_by: ctx.userId };
      await trx.updateTable(b.company.name).set({ [BOOKS_CLOSED_FIELD]: closed, ...stamp }).where('id', '=', company).execute();
      await service.recordUpdate(trx, b.company.name, company, before, { ...before, [BOOKS_CLOSED_FIELD]: closed, ...stamp }, ctx, 'close_year');
    }
    const entry = await trx.selectFrom(b.head.name).select(['id', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow();
    return { company, year, entry_id: id, entry_no: entry.doc_no, net_profit: -loss / 100, [BOOKS_CLOSED_FIELD]: closed };
  });
}

/** POST /api/ledger/close-year {company, year}. */
export function registerYearClose(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  app.post('/api/ledger/close-year', async (request) => ({ success: true, data: await closeYear(service, request.body, contextOf(request)) }));
}
