/** The ledger against the balance table, key by key, in quantity and in value (for tests of any stock sequence). */
import { sql, type Kysely } from 'kysely';

export interface KeyState { qty: number; value: number }

const keyOf = (r: Record<string, unknown>) => [r.product_id, r.inventory_id, r.location_id, r.lot_no, String(r.expiry_date ?? '').slice(0, 10), r.container_id].map(String).join('|');

/** Per balance key: what the ledger sums to (`ledger`) and what `stock_balance` holds (`balance`). Scaled qty, satang. */
export async function ledgerAndBalances(k: Kysely<any>): Promise<{ ledger: Map<string, KeyState>; balance: Map<string, KeyState> }> {
  const moved = await sql<Record<string, unknown>>`select product_id, inventory_id, coalesce(product_location_id, 0) as location_id, coalesce(lot_no, '') as lot_no,
      coalesce(cast(expiry_date as text), '') as expiry_date, coalesce(product_container_id, 0) as container_id,
      sum(case when direction = 'in' then qty else -qty end) as qty,
      sum(case when direction = 'in' then value else -value end) as value,
      sum(case when value is null then 1 else 0 end) as unvalued
    from stock_movement
    group by product_id, inventory_id, coalesce(product_location_id, 0), coalesce(lot_no, ''), coalesce(cast(expiry_date as text), ''), coalesce(product_container_id, 0)`.execute(k);
  const ledger = new Map<string, KeyState>();
  for (const r of moved.rows) {
    // every movement the ledger writes carries its value
    if (Number(r.unvalued) !== 0) throw new Error(`movements without a value at ${keyOf(r)}`);
    ledger.set(keyOf(r), { qty: Number(r.qty), value: Number(r.value) });
  }
  const balance = new Map<string, KeyState>();
  for (const r of await k.selectFrom('stock_balance').selectAll().execute()) balance.set(keyOf(r), { qty: Number(r.qty), value: Number(r.value) });
  return { ledger, balance };
}

/** Keys where the ledger and the balance disagree (a key absent on one side counts as 0 there), as text for a readable failure. */
export async function ledgerMismatches(k: Kysely<any>): Promise<string[]> {
  const { ledger, balance } = await ledgerAndBalances(k);
  const out: string[] = [];
  for (const key of new Set([...ledger.keys(), ...balance.keys()])) {
    const l = ledger.get(key) ?? { qty: 0, value: 0 };
    const b = balance.get(key) ?? { qty: 0, value: 0 };
    if (l.qty !== b.qty || l.value !== b.value) out.push(`${key}: ledger ${l.qty}/${l.value}, balance ${b.qty}/${b.value}`);
  }
  return out;
}
