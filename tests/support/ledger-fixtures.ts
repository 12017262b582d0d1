/** Reading the general ledger's entries in API tests (issue 50): a document's entries, and an entry by account role. */
import { expect } from 'vitest';
import type { StockClient } from './stock-fixtures.ts';
import { q } from './security-fixtures.ts';

type Row = Record<string, any>;

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
