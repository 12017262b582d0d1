/**
 * The accounting invariants of issue 31 §11, read straight from the tables
 * (not through the API, whose rules are what is being checked). Each answers
 * a list of what is broken, empty when everything holds.
 */
import type { Kysely } from 'kysely';
import type { TestApp } from '../support/test-app.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { lineCapacities } from '../../server/documents/line-capacity.ts';
import { collectedWithinTotal, noLiveOnCancelled } from './collect-invariants.ts';

type Row = Record<string, any>;
const n = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

function linesEntity(t: TestApp, entity: EntitySchema): { table: string; parent: string } {
  const child = t.registry.get(fieldOf(entity, entity.document!.lines!)!.entity!)!;
  return { table: child.name, parent: child.parent!.field };
}

/**
 * No source line is processed beyond what it holds: its quantity, or for documents measured by
 * amount its share of the source's total (the engine's capacities); and, measured independently
 * of those shares, what a kind of document took of a source never exceeds the source's total.
 */
async function notOverProcessed(t: TestApp, k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const perSource = new Map<string, number>();
  for (const p of await k.selectFrom('document_progress').selectAll().execute()) {
    const target = t.registry.get(String(p.target_entity))!;
    const spec = target.document!.from!.find((f) => f.source === p.source_entity)!;
    const source = t.registry.get(spec.source)!;
    const lines = linesEntity(t, source);
    const measure = spec.measure ?? 'qty';
    const line = await k.selectFrom(lines.table).select(lines.parent).where('id', '=', p.source_line_id).executeTakeFirstOrThrow();
    const caps = await lineCapacities(k, t.service, source, measure, [n(line[lines.parent])]);
    if (n(p.done) < 0 || n(p.done) > n(caps.get(n(p.source_line_id)))) out.push(`${spec.source} line ${p.source_line_id}: ${p.target_entity} took ${p.done} of ${caps.get(n(p.source_line_id))}`);
    if (measure === 'amount') {
      const key = `${spec.source}|${line[lines.parent]}|${target.name}`;
      perSource.set(key, (perSource.get(key) ?? 0) + n(p.done));
    }
  }
  for (const [key, done] of perSource) {
    const [source, id, target] = key.split('|');
    const head = await k.selectFrom(source!).select('total_amount').where('id', '=', Number(id)).executeTakeFirstOrThrow();
    if (done > n(head.total_amount)) out.push(`${source} ${id}: ${target} took ${done} satang of a total of ${head.total_amount}`);
  }
  return out;
}

/** The live documents of `target` made from each document of `source`, with the source lines they took from. */
async function childrenOf(t: TestApp, k: Kysely<any>, target: string, source: string): Promise<Map<number, Set<number>>> {
  const tLines = linesEntity(t, t.registry.get(target)!);
  const sLines = linesEntity(t, t.registry.get(source)!);
  const rows = await k.selectFrom('document_link as l')
    .innerJoin(`${tLines.table} as tl`, 'tl.id', 'l.target_line_id')
    .innerJoin(`${sLines.table} as sl`, 'sl.id', 'l.source_line_id')
    .select([`tl.${tLines.parent} as child`, `sl.${sLines.parent} as parent`])
    .where('l.target_entity', '=', target).where('l.source_entity', '=', source)
    .execute();
  const out = new Map<number, Set<number>>();
  for (const r of rows) out.set(n(r.parent), (out.get(n(r.parent)) ?? new Set()).add(n(r.child)));
  return out;
}

/**
 * A fully processed source's children total exactly its amount. (A receipt's
 * total is what it settles: the money received plus the tax the customer withheld.)
 * Tax invoices split by quantity are left out: each states its own rate × base, half-up,
 * which may differ from the order's VAT by a satang (issue 44 §9); their VAT is checked
 * in tests/documents/tax-invariants.property.test.ts.
 */
async function fullyProcessedAddsUp(t: TestApp, k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  for (const target of t.registry.all()) {
    if (!target.document?.from || !fieldOf(target, 'total_amount')) continue;
    if (target.document.taxInvoice && !target.document.taxInvoice.roleField) continue;
    for (const spec of target.document.from) {
      const source = t.registry.get(spec.source)!;
      if (!fieldOf(source, 'total_amount')) continue;
      const measure = spec.measure ?? 'qty';
      for (const [parent, children] of await childrenOf(t, k, target.name, source.name)) {
        const caps = await lineCapacities(k, t.service, source, measure, [parent]);
        const done = await k.selectFrom('document_progress').select(['source_line_id', 'done'])
          .where('source_entity', '=', source.name).where('target_entity', '=', target.name).where('source_line_id', 'in', [...caps.keys()]).execute();
        const doneOf = new Map(done.map((d) => [n(d.source_line_id), n(d.done)]));
        if (![...caps].every(([id, cap]) => doneOf.get(id) === cap)) continue;
        // children made from this source alone: a document that mixes sources is judged with all of them
        const kids = await k.selectFrom(target.name).selectAll().where('id', 'in', [...children]).execute();
        const sum = kids.reduce((s, d) => s + n(d.total_amount), 0);
        if (process.env.PROPERTY_TRACE) console.log('FULLCHECK', target.name, source.name, children.size, sum, n((await k.selectFrom(source.name).select('total_amount').where('id', '=', parent).executeTakeFirst())?.total_amount));
        const head = await k.selectFrom(source.name).select('total_amount').where('id', '=', parent).executeTakeFirstOrThrow();
        if (sum !== n(head.total_amount)) out.push(`${source.name} ${parent} is fully processed by ${target.name} ${[...children].join(', ')}, which total ${sum} satang, not ${head.total_amount}`);
      }
    }
  }
  return out;
}

/** For every stock key, the ledger equals the balance, in quantity and in value. */
async function ledgerEqualsBalance(k: Kysely<any>): Promise<string[]> {
  const key = (r: Row) => [r.product_id, r.inventory_id, n(r.product_location_id ?? r.location_id), r.lot_no ?? '', r.expiry_date ?? '', n(r.product_container_id ?? r.container_id)].join('|');
  const ledger = new Map<string, { qty: number; value: number }>();
  for (const m of await k.selectFrom('stock_movement').selectAll().execute()) {
    const sign = m.direction === 'in' ? 1 : -1;
    const e = ledger.get(key(m)) ?? { qty: 0, value: 0 };
    e.qty += sign * n(m.qty);
    // a movement's value: stored, or its quantity (×10⁴) at its unit cost, to the satang
    e.value += sign * (m.value !== undefined ? n(m.value) : Math.round((n(m.qty) * n(m.unit_cost)) / 10_000));
    ledger.set(key(m), e);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const b of await k.selectFrom('stock_balance').selectAll().execute()) {
    const e = ledger.get(key(b)) ?? { qty: 0, value: 0 };
    seen.add(key(b));
    if (e.qty !== n(b.qty) || e.value !== n(b.value)) out.push(`stock ${key(b)}: ledger ${e.qty} qty, ${e.value} satang; balance ${b.qty} qty, ${b.value} satang`);
  }
  for (const [kk, e] of ledger) if (!seen.has(kk) && (e.qty !== 0 || e.value !== 0)) out.push(`stock ${kk}: ledger ${e.qty} qty, ${e.value} satang, and no balance row`);
  return out;
}

/** Numbers are unique per series, and series drawn on posting have no gaps. */
async function numbersGapFree(t: TestApp, k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  for (const e of t.registry.all()) {
    const num = e.numbering;
    if (!num || e.kind !== 'document') continue;
    const rows = await k.selectFrom(e.name).select(['id', num.field, ...(fieldOf(e, 'your_company_id') ? ['your_company_id'] : [])]).where(num.field, 'is not', null).execute();
    const series = new Map<string, number[]>();
    for (const r of rows) {
      const text = String(r[num.field]);
      const m = /^(.*?)(\d+)$/.exec(text);
      if (!m) continue;
      const s = `${r.your_company_id ?? ''}|${m[1]}`;
      series.set(s, [...(series.get(s) ?? []), Number(m[2])]);
    }
    for (const [s, seqs] of series) {
      const sorted = [...seqs].sort((a, b) => a - b);
      if (new Set(sorted).size !== sorted.length) out.push(`${e.name} series ${s} repeats a number: ${sorted.join(', ')}`);
      else if (num.assignOn === 'post' && sorted.some((v, i) => v !== i + 1)) out.push(`${e.name} series ${s} has a gap: ${sorted.join(', ')}`);
    }
  }
  return out;
}

/**
 * A bill is `paid` exactly when what posted receipts settled of it (money received
 * plus the tax withheld, the receipt lines' amounts) covers it, counted in satang.
 */
async function billsPaidExactly(k: Kysely<any>): Promise<string[]> {
  const out: string[] = [];
  const rows = await k.selectFrom('document_link as l')
    .innerJoin('billing_note_item as bl', 'bl.id', 'l.source_line_id')
    .innerJoin('receipt_item as rl', 'rl.id', 'l.target_line_id')
    .innerJoin('receipt as r', 'r.id', 'rl.receipt_id')
    .select(['bl.billing_note_id as bill', 'l.amount', 'r.wht_amount', 'r.net_amount', 'r.total_amount'])
    .where('l.target_entity', '=', 'receipt').where('l.source_entity', '=', 'billing_note').where('r.status', '=', 'posted')
    .execute();
  const settled = new Map<number, number>();
  for (const r of rows) {
    settled.set(n(r.bill), (settled.get(n(r.bill)) ?? 0) + n(r.amount));
    // what a receipt settles is the money received and the tax withheld, nothing else
    if (n(r.net_amount) + n(r.wht_amount) !== n(r.total_amount)) out.push(`receipt of bill ${r.bill}: received ${r.net_amount} + withheld ${r.wht_amount} is not its total ${r.total_amount}`);
  }
  for (const b of await k.selectFrom('billing_note').select(['id', 'status', 'total_amount']).where('status', 'in', ['issued', 'partially_paid', 'paid']).execute()) {
    const got = settled.get(n(b.id)) ?? 0;
    const want = got >= n(b.total_amount) ? 'paid' : got > 0 ? 'partially_paid' : 'issued';
    if (b.status !== want) out.push(`billing_note ${b.id} is ${b.status} with ${got} of ${b.total_amount} satang settled`);
  }
  return out;
}

export async function checkInvariants(t: TestApp): Promise<string[]> {
  const k = t.db.kysely;
  return [
    ...await notOverProcessed(t, k),
    ...await fullyProcessedAddsUp(t, k),
    ...await ledgerEqualsBalance(k),
    ...await numbersGapFree(t, k),
    ...await billsPaidExactly(k),
    ...await collectedWithinTotal(t, k),
    ...await noLiveOnCancelled(t, k),
  ];
}
