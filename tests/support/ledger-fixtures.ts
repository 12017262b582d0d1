/** Reading the general ledger's entries in API tests (issue 50): a document's entries, and an entry by account role. */
import { expect } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { StockClient } from './stock-fixtures.ts';
import { q } from './security-fixtures.ts';

type Row = Record<string, any>;

/** The chart of accounts by id (each account's role and code), as the admin reads it. */
export async function accountsById(c: StockClient): Promise<Map<number, Row>> {
  const rows = await c.ok(c.call('GET', '/api/account?limit=500', c.admin)) as unknown as Row[];
  return new Map(rows.map((a) => [a.id as number, a]));
}

/** The posted entries written for a document, with their lines, oldest first. */
export async function entriesOf(c: StockClient, entity: string, id: number): Promise<Row[]> {
  const list = await c.ok(c.call('GET', `/api/journal_entry?sort=id&filter=${q({ source_entity: { _eq: entity }, source_id: { _eq: id } })}`, c.admin)) as unknown as Row[];
  return Promise.all(list.map((e) => c.ok(c.call('GET', `/api/journal_entry/${e.id}`, c.admin))));
}

/** An entry's lines as role → signed amount (debit positive); each line one-sided and the entry balanced. */
export function byRole(accounts: Map<number, Row>, entry: Row): Record<string, number> {
  const out: Record<string, number> = {};
  let sum = 0;
  for (const l of entry.items as Row[]) {
    expect(l.debit > 0 !== l.credit > 0, JSON.stringify(l)).toBe(true);
    const role = accounts.get(l.account_id)?.role ?? `#${l.account_id}`;
    out[role] = Math.round(((out[role] ?? 0) + l.debit - l.credit) * 100) / 100;
    sum += Math.round(l.debit * 100) - Math.round(l.credit * 100);
  }
  expect(sum, `entry ${entry.doc_no} balances`).toBe(0);
  return out;
}

/**
 * Where the ledger's day summaries (journal_account_day, journal_party_day: server/ledger/journal-days.ts) differ
 * from the posted lines summed the same way, as readable lines (empty when they agree to the satang).
 */
export async function daySummaryMismatches(k: Kysely<any>): Promise<string[]> {
  const posted = `from journal_entry_item i join journal_entry e on e.id = i.journal_entry_id where e.status = 'posted'`;
  const out: string[] = [];
  const compare = async (table: string, key: string, keyOfLines: string) => {
    const fromLines = (await sql.raw<Row>(`select ${keyOfLines} as k, sum(i.debit) as debit, sum(i.credit) as credit, count(*) as n ${posted} group by ${keyOfLines}`).execute(k)).rows;
    const fromDays = (await sql.raw<Row>(`select ${key} as k, debit, credit, line_count as n from ${table}`).execute(k)).rows;
    const want = new Map(fromLines.map((r) => [String(r.k), `${Number(r.debit)}/${Number(r.credit)}/${Number(r.n)}`]));
    const got = new Map(fromDays.map((r) => [String(r.k), `${Number(r.debit)}/${Number(r.credit)}/${Number(r.n)}`]));
    for (const [key_, v] of want) if (got.get(key_) !== v) out.push(`${table} ${key_}: ${got.get(key_) ?? 'no row'}, the lines sum to ${v} (debit/credit/lines)`);
    for (const [key_, v] of got) if (!want.has(key_)) out.push(`${table} ${key_}: ${v} without posted lines`);
  };
  const day = (col: string) => `cast(${col} as text)`;
  await compare('journal_account_day', `your_company_id || '/' || account_id || '/' || journal || '/' || ${day('doc_date')}`, `e.your_company_id || '/' || i.account_id || '/' || e.journal || '/' || ${day('e.doc_date')}`);
  await compare('journal_party_day', `your_company_id || '/' || account_id || '/' || customer_id || '/' || supplier_id || '/' || ${day('doc_date')}`,
    `e.your_company_id || '/' || i.account_id || '/' || coalesce(i.customer_id, 0) || '/' || coalesce(i.supplier_id, 0) || '/' || ${day('e.doc_date')}`);
  return out;
}

/**
 * Journal lines whose copy of their entry's date and company (server/ledger/entry-copy.ts) differs from the entry,
 * as readable lines (empty when every line, draft or posted, carries its entry's).
 */
export async function entryCopyMismatches(k: Kysely<any>): Promise<string[]> {
  const rows = (await sql.raw<Row>(`select i.id, cast(i.doc_date as text) as line_date, cast(e.doc_date as text) as entry_date, i.your_company_id as line_company, e.your_company_id as entry_company
    from journal_entry_item i join journal_entry e on e.id = i.journal_entry_id
    where i.doc_date is null or i.doc_date <> e.doc_date or i.your_company_id is null or i.your_company_id <> e.your_company_id`).execute(k)).rows;
  return rows.map((r) => `line ${r.id}: ${r.line_date}/${r.line_company}, its entry ${r.entry_date}/${r.entry_company} (date/company)`);
}
