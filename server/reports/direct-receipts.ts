import type { CollectionChain } from './collection-chain.ts';
import { spread } from '../../engine/documents/document-math.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { MAX_LIMIT } from '../crud/list-query.ts';
import { AppError } from '../errors/app-error.ts';

type Row = Record<string, unknown>;

/** Satang a posted receipt received (and had withheld) that settles no billing note. */
export interface DirectReceipt {
  customer_id: number;
  customer_name: string | null;
  money: number;
  withheld: number;
}

const satang = (baht: unknown): number => Math.round(Number(baht ?? 0) * 100);

/**
 * Receipts of the period, read as the caller (its receipts' rights and row scope; a role that may not read
 * receipts sees the bills' figures only), less what they settled of billing notes: the money of a receipt made
 * straight from an order, or typed by hand, is money the customer paid (issue 44 §1). Its tax withheld is spread
 * over the billed and the direct part by their amounts, as the bills' side does.
 */
export async function directReceipts(service: EntityService, chain: CollectionChain, from: string | null, to: string, customer: number | null, ctx: RequestContext): Promise<DirectReceipt[]> {
  const entity = chain.receipts;
  try {
    service.policy.assertAllowed(ctx, entity, 'read');
  } catch (err) {
    if (err instanceof AppError && err.status === 403) return [];
    throw err;
  }
  const filter: Row = { status: { _eq: 'posted' }, doc_date: { _lte: to, ...(from ? { _gte: from } : {}) } };
  if (customer !== null) filter.customer_id = { _eq: customer };
  const receipts: Row[] = [];
  for (let offset = 0; ; offset += MAX_LIMIT) {
    const q = service.parseQuery(entity, {
      filter: JSON.stringify(filter), sort: 'id', limit: String(MAX_LIMIT), offset: String(offset), fields: 'id,customer_id,customer_id.name_th,total_amount,wht_amount',
    }, ctx);
    const { rows } = await service.list(entity.name, q, ctx);
    receipts.push(...rows);
    if (rows.length < MAX_LIMIT) break;
  }
  const billed = new Map<number, number>();
  const ids = receipts.map((r) => Number(r.id));
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await service.db.kysely.selectFrom('document_link as d')
      .innerJoin(`${chain.receiptLines} as ri`, 'ri.id', 'd.target_line_id')
      .select([`ri.${chain.receiptOf} as receipt`, (eb) => eb.fn.sum<string>('d.amount').as('amount')])
      .where('d.target_entity', '=', entity.name).where('d.source_entity', '=', chain.bills.name).where(`ri.${chain.receiptOf}`, 'in', ids.slice(i, i + 500))
      .groupBy(`ri.${chain.receiptOf}`).execute();
    for (const r of rows) billed.set(Number(r.receipt), Number(r.amount));
  }
  const out: DirectReceipt[] = [];
  for (const r of receipts) {
    const total = satang(r.total_amount);
    const onBills = billed.get(Number(r.id)) ?? 0;
    const direct = total - onBills;
    if (direct <= 0) continue;
    const [, withheld] = spread(BigInt(satang(r.wht_amount)), [BigInt(onBills), BigInt(direct)]);
    out.push({ customer_id: Number(r.customer_id), customer_name: (r['customer_id.name_th'] as string | undefined) ?? null, money: direct - Number(withheld), withheld: Number(withheld) });
  }
  return out;
}
