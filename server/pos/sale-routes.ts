import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SaleSpec } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { businessToday, businessDate } from '../../engine/documents/business-time.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { formatNumber, seriesKey } from '../../engine/documents/numbering-format.ts';
import { baht } from '../../engine/pos/promotion-math.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { siteSettings } from '../settings/site-settings.ts';
import { linesOf } from '../documents/document-lines.ts';
import { registerOnHandRoutes } from './sale-on-hand.ts';
import { registerShiftReportRoutes } from './shift-report.ts';
import { readForShare } from '../db/dialect-sql.ts';
import { priceSale, promotionEntityOf, promotionsOn, readSaleRequest, rowsById } from './sale-pricing.ts';

type Row = Record<string, unknown>;

const KEY = /^[A-Za-z0-9_.:-]{8,100}$/;

/** The Idempotency-Key header: one value, 8 to 100 safe characters. */
function idempotencyKey(request: FastifyRequest): string {
  const raw = request.headers['idempotency-key'];
  if (typeof raw !== 'string' || !KEY.test(raw)) {
    throw new AppError('BAD_REQUEST', 'Send an Idempotency-Key header (8 to 100 letters, digits, - _ . :) so that a sale is stored once', undefined, { reason: 'idempotency_key' });
  }
  return raw;
}

/** The sale already stored under this key, as the caller may read it; null when there is none. */
async function storedSale(service: EntityService, entity: EntitySchema, sale: SaleSpec, key: string, ctx: RequestContext): Promise<Row | null> {
  const row = await service.db.kysely.selectFrom(entity.name).select('id').where(sale.idempotencyField, '=', key).executeTakeFirst();
  return row ? service.get(entity.name, Number(row.id), ctx) : null;
}

/** The tax invoice number of a sale: its own series per terminal and form (abbreviated, full), drawn in the sale's transaction. */
async function drawInvoiceNumber(trx: Kysely<any>, entity: EntitySchema, sale: SaleSpec, form: 'abbreviated' | 'full', terminal: number, terminalCode: string): Promise<string> {
  const series = { field: sale.invoiceNumber, prefix: sale.invoicePrefix[form], pattern: '{terminal}-{prefix}{YY}{MM}-{seq:5}', resetEvery: 'month' as const };
  const date = businessDate(businessClock.now(), businessClock.timeZone);
  const key = seriesKey(`${entity.name}.${sale.invoiceNumber}.${form}`, series, date, String(terminal));
  const row = await trx.insertInto('numbering_counter').values({ series: key, value: 1 })
    .onConflict((oc) => oc.column('series').doUpdateSet({ value: sql`numbering_counter.value + 1` }))
    .returning('value').executeTakeFirstOrThrow();
  return formatNumber(series, date, Number(row.value), { terminal: terminalCode });
}

/**
 * Makes a sale (`document.sale`, issue 33 §9) from `{ pos_shift_id, items: [{product_id, qty}], payments:
 * [{payment_method_id, amount}] }` under an idempotency key. The server prices the lines from the products (VAT
 * included) with the promotions of the day, judges the payments (change from cash only), and makes and posts the
 * document in one transaction (stock out through its `document.stock`). A repeat of a key answers the sale stored
 * under it and creates nothing, concurrent repeats included (the key's unique index).
 */
export async function makeSale(service: EntityService, name: string, rawBody: unknown, key: string, ctx: RequestContext): Promise<{ data: Row; replayed: boolean }> {
  const sale = service.entity(name).document!.sale!;
  const e = service.entity(name);
  service.policy.assertAllowed(ctx, e, 'create');
  const first = await storedSale(service, e, sale, key, ctx);
  if (first) return { data: first, replayed: true };
  const req = readSaleRequest(sale, rawBody);

  const shiftEntity = fieldOf(e, sale.shift)!.entity!;
  const shift = await service.get(shiftEntity, req.shiftId, ctx).catch((err) => {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw new AppError('VALIDATION_FAILED', `${sale.shift}: does not exist`, { fields: [{ field: sale.shift, code: 'link', message: 'does not exist or is archived' }] });
    throw err;
  });
  const shiftFlow = service.entity(shiftEntity).workflow;
  if (shiftFlow && shift[shiftFlow.field] !== shiftFlow.initial) {
    throw new AppError('VALIDATION_FAILED', `${sale.shift}: the shift is closed; open a new shift`, { fields: [{ field: sale.shift, code: 'shift_not_open', message: 'is not an open shift: open a shift first' }] });
  }
  const terminalEntity = fieldOf(e, sale.terminal)!.entity!;
  const terminal = (await rowsById(service, terminalEntity, [Number(shift[sale.terminal])])).get(Number(shift[sale.terminal]));
  if (!terminal) throw new AppError('VALIDATION_FAILED', `${sale.shift}: its terminal is archived`, { fields: [{ field: sale.shift, code: 'link', message: 'belongs to an archived terminal' }] });

  const today = businessToday(businessClock.now(), businessClock.timeZone);
  const lines = linesOf(service, e);
  const payLines = service.entity(fieldOf(e, sale.payments)!.entity!);
  const promoEntity = promotionEntityOf(lines.entity);
  const [products, methods, promotions, site] = await Promise.all([
    rowsById(service, fieldOf(lines.entity, 'product_id')!.entity!, req.items.map((i) => i.product_id)),
    rowsById(service, fieldOf(payLines, 'payment_method_id')!.entity!, req.payments.map((p) => p.payment_method_id)),
    promoEntity ? promotionsOn(service, promoEntity, today) : Promise.resolve([]),
    siteSettings(service.db.kysely, service.registry),
  ]);
  const channelId = terminal.sales_channel_id === null || terminal.sales_channel_id === undefined ? null : Number(terminal.sales_channel_id);
  const { cart, paid, change } = priceSale(req, products, methods, promotions, today, channelId, sale.payments);

  const full = req.full || req.buyer.buyer_tax_id !== undefined;
  if (full) {
    const missing = ['buyer_name', 'buyer_tax_id', 'buyer_branch_code'].filter((f) => req.buyer[f] === undefined);
    if (missing.length) throw new AppError('VALIDATION_FAILED', `${missing.join(', ')}: a full tax invoice names the buyer`, { fields: missing.map((field) => ({ field, code: 'required', message: 'is required' })) });
  }
  const invoiceType = full ? 'full' : site.tax_invoice === 'abbreviated' ? 'abbreviated' : 'none';
  const companyEntity = fieldOf(service.entity(terminalEntity), 'your_company_id')?.entity;
  const company = companyEntity && terminal.your_company_id ? (await rowsById(service, companyEntity, [Number(terminal.your_company_id)])).get(Number(terminal.your_company_id)) : undefined;

  // unit and payment type are sent, not filled through their links one line at a time: the rows are read already
  const body: Row = {
    [sale.shift]: req.shiftId, doc_date: today, ...req.buyer,
    items: cart.lines.map((l, i) => ({
      product_id: l.product_id, description: String(products.get(l.product_id)!.name_th ?? ''), unit: products.get(l.product_id)!.unit ?? null, qty: req.items[i]!.qty,
      // the product's VAT status goes with the line: the document's VAT is on the VAT-bearing lines only
      ...(fieldOf(lines.entity, 'vat_type') ? { vat_type: products.get(l.product_id)!.vat_type ?? null } : {}),
      price: baht(l.price), discount_amount: baht(l.discount), promotion_id: l.promotion_id,
    })),
    [sale.payments]: req.payments.map((p) => ({ payment_method_id: p.payment_method_id, payment_type: methods.get(p.payment_method_id)!.payment_type, amount: p.amount, ...(p.reference ? { reference: p.reference } : {}) })),
  };
  const server: Row = {
    [sale.terminal]: Number(shift[sale.terminal]), inventory_id: terminal.inventory_id ?? null, your_company_id: terminal.your_company_id ?? null,
    sales_channel_id: channelId, [sale.idempotencyField]: key, invoice_type: invoiceType, seller_tax_id: company?.tax_id ?? null,
    promotion_id: cart.bill_promotion_id, discount_amount: baht(cart.bill_discount), paid_amount: baht(paid), change_amount: baht(change), vat_type: 'include',
  };
  const shiftTable = shiftEntity;
  try {
    const data = await service.createAndRun(name, body, e.document!.postAction ?? 'approve', ctx, server, async (trx, created) => {
      // the shift may have closed since it was read: judged again under its lock (PostgreSQL; SQLite has one writer)
      let q = trx.selectFrom(shiftTable).select(shiftFlow?.field ?? 'id').where('id', '=', req.shiftId);
      q = readForShare(trx, q);
      const now = await q.executeTakeFirst();
      if (shiftFlow && now?.[shiftFlow.field] !== shiftFlow.initial) {
        throw new AppError('VALIDATION_FAILED', `${sale.shift}: the shift is closed; open a new shift`, { fields: [{ field: sale.shift, code: 'shift_not_open', message: 'is not an open shift: open a shift first' }] });
      }
      if (Number(created.total_amount) !== baht(cart.total)) throw new Error(`the document's total ${String(created.total_amount)} is not the register's ${baht(cart.total)}`);
      if (invoiceType !== 'none') {
        const no = await drawInvoiceNumber(trx, e, sale, invoiceType, Number(shift[sale.terminal]), String(terminal.code ?? terminal.id));
        await trx.updateTable(name).set({ [sale.invoiceNumber]: no }).where('id', '=', Number(created.id)).execute();
        created[sale.invoiceNumber] = no;
      }
    });
    return { data, replayed: false };
  } catch (err) {
    // a concurrent repeat of the same key lost the race on the unique index: answer the sale that won
    if (err instanceof AppError && err.code === 'CONFLICT') {
      const won = await storedSale(service, e, sale, key, ctx);
      if (won) return { data: won, replayed: true };
    }
    throw err;
  }
}

/** POST /api/{entity} of every sale entity: the Idempotency-Key header and makeSale; 201 for a new sale, 200 for a repeat. */
export function registerSaleRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  registerOnHandRoutes(app, service, contextOf);
  registerShiftReportRoutes(app, service, contextOf);
  for (const entity of service.registry.all()) {
    if (!entity.document?.sale) continue;
    const name = entity.name;
    app.post(`/api/${name}`, async (request, reply) => {
      const ctx = contextOf(request);
      service.policy.assertAllowed(ctx, service.entity(name), 'create');
      const { data, replayed } = await makeSale(service, name, request.body, idempotencyKey(request), ctx);
      return reply.status(replayed ? 200 : 201).send({ success: true, data, ...(replayed ? { meta: { replayed: true } } : {}) });
    });
  }
}
