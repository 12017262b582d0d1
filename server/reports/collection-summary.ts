import type { FastifyInstance } from 'fastify';
import { businessToday } from '../../engine/documents/business-time.ts';
import { spread } from '../../engine/documents/document-math.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { MAX_LIMIT } from '../crud/list-query.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { AppError } from '../errors/app-error.ts';
import { directReceipts } from './direct-receipts.ts';
import { collectionChain, type CollectionChain } from './collection-chain.ts';

type Row = Record<string, unknown>;

/** The ageing buckets, by days past the due date on the "as of" day. */
export const AGEING_BUCKETS = ['current', 'd1_30', 'd31_60', 'd61_90', 'over_90'] as const;
type Bucket = typeof AGEING_BUCKETS[number];

export interface CustomerCollection {
  customer_id: number;
  customer_name: string | null;
  bills: number;
  billed: number;
  /** Money received: what receipts settled less the tax the customer withheld. */
  received: number;
  /** Tax the customer withheld on those receipts (its 50 ทวิ): settles the bill as money does. */
  withheld: number;
  /**
   * Of `received`, money of receipts dated in the period that settle no bill: made straight from an order, or
   * typed by hand (their tax withheld is in `withheld`). It settles the order, not a bill, so `outstanding` is the bills'.
   */
  received_direct: number;
  outstanding: number;
  ageing: Record<Bucket, number>;
}

export interface CollectionSummary {
  from: string | null;
  to: string;
  customers: CustomerCollection[];
  totals: Omit<CustomerCollection, 'customer_id' | 'customer_name'>;
}

/** Billing notes that count as billed: issued and not cancelled. */
const BILLED_STATES = ['issued', 'partially_paid', 'paid'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const satang = (baht: unknown): number => Math.round(Number(baht ?? 0) * 100);
const baht = (s: number): number => s / 100;

function bucketOf(asOf: string, due: string): Bucket {
  const days = Math.round((Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${due}T00:00:00Z`)) / 86_400_000);
  if (days <= 0) return 'current';
  if (days <= 30) return 'd1_30';
  if (days <= 60) return 'd31_60';
  if (days <= 90) return 'd61_90';
  return 'over_90';
}

function dateParam(raw: unknown, name: string): string | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || !DATE.test(raw) || Number.isNaN(Date.parse(`${raw}T00:00:00Z`))) {
    throw new AppError('INVALID_QUERY', `${name} must be a date YYYY-MM-DD`);
  }
  return raw;
}

/**
 * Billed, received and outstanding per customer for the billing notes dated
 * in a period, with the outstanding part aged by due date on the period's
 * last day (in the business's time zone). Reads billing notes through the
 * service as the caller: the same permission and row scope as their list, so a
 * portal customer sees only its own figures.
 *
 * What a bill has been settled by is what posted receipts took of its lines: a part of the bill's
 * total, VAT included, summed exactly in satang. Of that, the tax the customer withheld (each
 * receipt's wht_amount, spread over its lines in proportion) is shown apart from the money received.
 */
export async function collectionSummary(service: EntityService, query: Row, ctx: RequestContext): Promise<CollectionSummary> {
  const known = new Set(['from', 'to', 'customer_id']);
  const unknown = Object.keys(query).filter((k) => !known.has(k));
  if (unknown.length) throw new AppError('INVALID_QUERY', `Unknown query parameter "${unknown[0]}"; use from, to or customer_id`);
  const from = dateParam(query.from, 'from');
  const to = dateParam(query.to, 'to') ?? businessToday(businessClock.now(), businessClock.timeZone);
  if (from && from > to) throw new AppError('INVALID_QUERY', 'from must not be after to');
  let customer: number | null = null;
  if (query.customer_id !== undefined && query.customer_id !== '') {
    customer = parseRecordId(String(query.customer_id));
    if (customer === null) throw new AppError('INVALID_QUERY', 'customer_id must be a record id');
  }
  const chain = collectionChain(service.registry);
  const entity = chain.bills;
  // before the query is judged field by field: a role without the billing notes is simply refused
  service.policy.assertAllowed(ctx, entity, 'read');
  const filter: Row = { status: { _in: BILLED_STATES }, bill_date: { _lte: to, ...(from ? { _gte: from } : {}) } };
  if (customer !== null) filter.customer_id = { _eq: customer };
  const bills: Row[] = [];
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const q = service.parseQuery(entity, {
      filter: JSON.stringify(filter), sort: 'customer_id,bill_date,id', limit: String(MAX_LIMIT), offset: String(offset),
      fields: 'id,bill_date,due_date,customer_id,customer_id.name_th,vat_type,subtotal,total_amount',
    }, ctx);
    const { rows } = await service.list(entity.name, q, ctx);
    bills.push(...rows);
    if (rows.length < MAX_LIMIT) break;
  }
  // what receipts dated after `to` settled is not yet settled on `to` (issue 44 §7)
  const { settled, withheld } = await settledOf(service, chain, bills.map((b) => Number(b.id)), to);
  const byCustomer = new Map<number, CustomerCollection>();
  const zero = () => Object.fromEntries(AGEING_BUCKETS.map((b) => [b, 0])) as Record<Bucket, number>;
  const rowOf = (id: number, name: unknown): CustomerCollection => byCustomer.get(id) ?? { customer_id: id, customer_name: (name as string | undefined) ?? null, bills: 0, billed: 0, received: 0, withheld: 0, received_direct: 0, outstanding: 0, ageing: zero() };
  for (const b of bills) {
    const id = Number(b.customer_id);
    const c = rowOf(id, b['customer_id.name_th']);
    const total = satang(b.total_amount);
    const paid = settled.get(Number(b.id)) ?? 0;
    const tax = withheld.get(Number(b.id)) ?? 0;
    const open = Math.max(total - paid, 0);
    c.bills += 1;
    c.billed += total;
    c.received += paid - tax;
    c.withheld += tax;
    c.outstanding += open;
    c.ageing[bucketOf(to, String(b.due_date ?? b.bill_date))] += open;
    byCustomer.set(id, c);
  }
  for (const r of await directReceipts(service, chain, from, to, customer, ctx)) {
    const c = rowOf(r.customer_id, r.customer_name);
    c.received += r.money;
    c.received_direct += r.money;
    c.withheld += r.withheld;
    byCustomer.set(r.customer_id, c);
  }
  const customers = [...byCustomer.values()].map((c) => ({ ...c, billed: baht(c.billed), received: baht(c.received), withheld: baht(c.withheld), received_direct: baht(c.received_direct), outstanding: baht(c.outstanding), ageing: mapBuckets(c.ageing, baht) }));
  const sum = (f: (c: CustomerCollection) => number) => baht(customers.reduce((s, c) => s + satang(f(c)), 0));
  const totals = {
    bills: customers.reduce((s, c) => s + c.bills, 0), billed: sum((c) => c.billed), received: sum((c) => c.received), withheld: sum((c) => c.withheld), received_direct: sum((c) => c.received_direct), outstanding: sum((c) => c.outstanding),
    ageing: Object.fromEntries(AGEING_BUCKETS.map((k) => [k, sum((c) => c.ageing[k])])) as Record<Bucket, number>,
  };
  customers.sort((a, b) => b.outstanding - a.outstanding || a.customer_id - b.customer_id);
  return { from, to, customers, totals };
}

function mapBuckets(a: Record<Bucket, number>, f: (n: number) => number): Record<Bucket, number> {
  return Object.fromEntries(AGEING_BUCKETS.map((k) => [k, f(a[k])])) as Record<Bucket, number>;
}

/**
 * Satang that posted receipts settled of each bill (VAT included), and the part of it that was tax
 * withheld: each receipt's wht_amount spread over all its lines by their amounts (remainder on the
 * last), so the parts add up to it exactly. The bills are already the caller's visible ones.
 */
async function settledOf(service: EntityService, c: CollectionChain, billIds: number[], to: string): Promise<{ settled: Map<number, number>; withheld: Map<number, number> }> {
  const settled = new Map<number, number>();
  const withheld = new Map<number, number>();
  const k = service.db.kysely;
  const [bl, ri, rc] = [`${c.billLines} as l`, `${c.receiptLines} as ri`, `${c.receipts.name} as r`] as const;
  const [bill, receipt] = [`l.${c.billOf}`, `ri.${c.receiptOf}`] as const;
  for (let i = 0; i < billIds.length; i += 500) {
    const chunk = billIds.slice(i, i + 500);
    // the links of posted receipts (a cancelled one has none), dated on or before `to`
    const rows = await k.selectFrom('document_link as d')
      .innerJoin(bl, 'l.id', 'd.source_line_id')
      .innerJoin(ri, 'ri.id', 'd.target_line_id')
      .innerJoin(rc, 'r.id', receipt)
      .select([`${bill} as bill`, (eb) => eb.fn.sum<string>('d.amount').as('done')])
      .where('d.source_entity', '=', c.bills.name).where('d.target_entity', '=', c.receipts.name).where(bill, 'in', chunk).where('r.doc_date', '<=', to)
      .groupBy(bill).execute();
    for (const r of rows) settled.set(Number(r.bill), Number(r.done));
    // the receipts with tax withheld that took from these bills, and every line each of them took
    const receipts = await k.selectFrom('document_link as d')
      .innerJoin(bl, 'l.id', 'd.source_line_id')
      .innerJoin(ri, 'ri.id', 'd.target_line_id')
      .innerJoin(rc, 'r.id', receipt)
      .select(['r.id as id', 'r.wht_amount as wht']).distinct()
      .where('d.source_entity', '=', c.bills.name).where('d.target_entity', '=', c.receipts.name).where(bill, 'in', chunk).where('r.wht_amount', '>', 0).where('r.doc_date', '<=', to)
      .execute();
    for (const r of receipts) {
      const links = await k.selectFrom('document_link as d')
        .innerJoin(ri, 'ri.id', 'd.target_line_id')
        .leftJoin(bl, (j) => j.onRef('l.id', '=', 'd.source_line_id').on('d.source_entity', '=', c.bills.name))
        .select([`${bill} as bill`, 'd.amount as amount']).where('d.target_entity', '=', c.receipts.name).where(receipt, '=', r.id)
        .orderBy('ri.line_no').orderBy('ri.id').execute();
      const parts = spread(BigInt(Number(r.wht)), links.map((x) => BigInt(Number(x.amount))));
      links.forEach((x, j) => {
        const bill = x.bill === null || x.bill === undefined ? null : Number(x.bill);
        if (bill !== null && chunk.includes(bill)) withheld.set(bill, (withheld.get(bill) ?? 0) + Number(parts[j]));
      });
    }
  }
  return { settled, withheld };
}

export function registerCollectionSummary(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  app.get('/api/report/collection_summary', async (request) => ({ success: true, data: await collectionSummary(service, request.query as Row, contextOf(request)) }));
}
