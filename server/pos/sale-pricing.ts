import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SaleSpec } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { DecimalInputError } from '../../engine/documents/decimal-value.ts';
import { baht, priceCart, settle, type PricedCart, type PromotionRow } from '../../engine/pos/promotion-math.ts';
import { lineVatExempt } from '../../engine/documents/document-totals.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { systemContext } from '../crud/access-policy.ts';

type Row = Record<string, unknown>;

export const MAX_SALE_LINES = 500;

/** What the register sends (issue 33 §9), checked for shape. */
export interface SaleRequest {
  shiftId: number;
  items: { product_id: number; qty: number | string }[];
  payments: { payment_method_id: number; amount: number | string; reference?: string }[];
  buyer: Row;
  full: boolean;
}

const BUYER_FIELDS = ['buyer_name', 'buyer_tax_id', 'buyer_branch_code', 'buyer_address'] as const;
const isId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isAmount = (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v));

function refuse(errors: FieldError[]): never {
  throw new AppError('VALIDATION_FAILED', errors.map((e) => `${e.field}: ${e.message}`).join('; '), { fields: errors });
}

/** The request body as the contract has it; every problem at once, each naming its field. */
export function readSaleRequest(sale: SaleSpec, body: unknown): SaleRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'Send the sale as a JSON object: { pos_shift_id, items, payments }');
  const b = body as Row;
  const errors: FieldError[] = [];
  const known = new Set<string>([sale.shift, 'items', sale.payments, 'invoice_type', ...BUYER_FIELDS]);
  for (const k of Object.keys(b)) if (!known.has(k)) errors.push({ field: k, code: 'unknown_field', message: 'is not a field of a sale' });
  if (!isId(b[sale.shift])) errors.push({ field: sale.shift, code: 'required', message: 'is required' });
  const items = Array.isArray(b.items) ? (b.items as Row[]) : [];
  if (!items.length) errors.push({ field: 'items', code: 'min_items', message: 'must have at least 1 item', params: { limit: 1 } });
  if (items.length > MAX_SALE_LINES) errors.push({ field: 'items', code: 'max_items', message: `must have at most ${MAX_SALE_LINES} items`, params: { limit: MAX_SALE_LINES } });
  items.forEach((it, i) => {
    if (!it || typeof it !== 'object') { errors.push({ field: `items.${i}`, code: 'type', message: 'must be an object' }); return; }
    if (!isId(it.product_id)) errors.push({ field: `items.${i}.product_id`, code: 'required', message: 'is required' });
    if (!isAmount(it.qty) || Number(it.qty) <= 0) errors.push({ field: `items.${i}.qty`, code: 'positive', message: 'must be more than 0' });
    for (const k of Object.keys(it)) if (k !== 'product_id' && k !== 'qty') errors.push({ field: `items.${i}.${k}`, code: 'unknown_field', message: 'is not a field of a sale line: prices and discounts are the server\'s' });
  });
  const payments = Array.isArray(b[sale.payments]) ? (b[sale.payments] as Row[]) : [];
  if (!payments.length) errors.push({ field: sale.payments, code: 'min_items', message: 'must have at least 1 payment', params: { limit: 1 } });
  payments.forEach((p, i) => {
    if (!p || typeof p !== 'object') { errors.push({ field: `${sale.payments}.${i}`, code: 'type', message: 'must be an object' }); return; }
    if (!isId(p.payment_method_id)) errors.push({ field: `${sale.payments}.${i}.payment_method_id`, code: 'required', message: 'is required' });
    if (!isAmount(p.amount) || Number(p.amount) <= 0) errors.push({ field: `${sale.payments}.${i}.amount`, code: 'positive', message: 'must be more than 0' });
    // the card's approval code, the transfer's reference: what the cashier read off the terminal or the phone
    if (p.reference !== undefined && p.reference !== null && (typeof p.reference !== 'string' || p.reference.length > 100)) errors.push({ field: `${sale.payments}.${i}.reference`, code: 'max_length', message: 'must be text of at most 100 characters', params: { limit: 100 } });
  });
  if (b.invoice_type !== undefined && b.invoice_type !== 'full') errors.push({ field: 'invoice_type', code: 'enum', message: 'may only ask for "full"; otherwise the site setting tax_invoice decides', params: { allowed: 'full' } });
  if (errors.length) refuse(errors);
  const buyer: Row = {};
  for (const f of BUYER_FIELDS) if (b[f] !== undefined && b[f] !== null && b[f] !== '') buyer[f] = b[f];
  return {
    shiftId: b[sale.shift] as number,
    items: items.map((it) => ({ product_id: it.product_id as number, qty: it.qty as number })),
    payments: payments.map((p) => ({ payment_method_id: p.payment_method_id as number, amount: p.amount as number, ...(typeof p.reference === 'string' && p.reference.trim() ? { reference: p.reference.trim() } : {}) })),
    buyer, full: b.invoice_type === 'full',
  };
}

/** Rows of an entity by id, as the system reads them (decoded to the API's JSON form). */
export async function rowsById(service: EntityService, entity: string, ids: number[]): Promise<Map<number, Row>> {
  const e = service.entity(entity);
  const unique = [...new Set(ids)];
  const query = service.parseQuery(e, { filter: JSON.stringify({ id: { _in: unique } }), limit: '500' }, systemContext);
  const { rows } = await service.list(entity, query, systemContext);
  return new Map(rows.map((r) => [Number(r.id), r]));
}

/** The promotions that may count today: published, live, within their dates (priceCart judges the channel). */
export async function promotionsOn(service: EntityService, promotionEntity: string, date: string): Promise<PromotionRow[]> {
  const e = service.entity(promotionEntity);
  const filter = { is_publish: { _eq: true }, start_date: { _lte: date }, end_date: { _gte: date } };
  const query = service.parseQuery(e, { filter: JSON.stringify(filter), limit: '500' }, systemContext);
  return (await service.list(promotionEntity, query, systemContext)).rows as unknown as PromotionRow[];
}

/** The promotion entity: the target of the lines' promotion link. */
export function promotionEntityOf(lines: EntitySchema): string | null {
  return fieldOf(lines, 'promotion_id')?.entity ?? null;
}

/** Whether a payment by this method must carry its reference: the method says so, and it is not cash. */
export function requiresReference(method: Row): boolean {
  const v = method.requires_reference;
  return (v === true || v === 1 || v === '1') && method.payment_type !== 'cash';
}

/** Prices the lines and judges the payments; refuses unknown products, products without a price and short payments. */
export function priceSale(
  req: SaleRequest, products: Map<number, Row>, methods: Map<number, Row>, promotions: PromotionRow[], date: string, channelId: number | null, paymentsField: string,
): { cart: PricedCart; paid: bigint; change: bigint } {
  const errors: FieldError[] = [];
  req.items.forEach((it, i) => {
    const p = products.get(it.product_id);
    if (!p) errors.push({ field: `items.${i}.product_id`, code: 'link', message: 'does not exist or is archived' });
    else if (p.price === null || p.price === undefined) errors.push({ field: `items.${i}.product_id`, code: 'no_price', message: 'has no selling price' });
  });
  req.payments.forEach((p, i) => {
    const m = methods.get(p.payment_method_id);
    if (!m) errors.push({ field: `${paymentsField}.${i}.payment_method_id`, code: 'link', message: 'does not exist or is archived' });
    // a card's approval code, a transfer's reference: a method that asks for one is not paid without it (cash never asks)
    else if (requiresReference(m) && !p.reference) errors.push({ field: `${paymentsField}.${i}.reference`, code: 'reference_required', message: 'is required by this payment method (the card\'s approval code, the transfer\'s reference)' });
  });
  if (errors.length) refuse(errors);
  let cart: PricedCart;
  let paid;
  try {
    cart = priceCart(req.items.map((it) => {
      const p = products.get(it.product_id)!;
      return { product_id: it.product_id, qty: it.qty, price: p.price as number, vat_exempt: lineVatExempt(p) };
    }), promotions, { date, channelId });
    paid = settle(cart.total, req.payments.map((p) => ({ amount: p.amount, is_cash: methods.get(p.payment_method_id)!.payment_type === 'cash' })));
  } catch (err) {
    if (!(err instanceof DecimalInputError)) throw err;
    const field = err.field.replace(/\[(\d+)\]/g, '.$1');
    refuse([{ field, code: 'decimal', message: err.message }]);
  }
  if (paid.problem === 'underpaid') refuse([{ field: paymentsField, code: 'underpaid', message: `do not cover the total: ${baht(paid.due)} baht still due`, params: { due: baht(paid.due) } }]);
  if (paid.problem) refuse([{ field: paymentsField, code: paid.problem, message: 'pay more than the total by other means than cash (only cash gives change)' }]);
  return { cart, paid: paid.paid, change: paid.change };
}
