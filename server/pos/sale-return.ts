import type { FastifyInstance } from 'fastify';
import { refundKeyOf, withSupervisor } from './supervisor-pin.ts';
import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SaleSpec } from '../../engine/schema/document-spec-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { parseDecimal } from '../../engine/documents/decimal-value.ts';
import { refundSplit, returnFigures, returnLineWorth } from '../../engine/pos/return-math.ts';
import { issueReturnNote } from './sale-credit-note.ts';
import { lineVatExempt } from '../../engine/documents/document-totals.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { bodyError } from '../crud/record-values.ts';
import { unscale } from '../db/field-codec.ts';
import { writeMovements, type MovementInput } from '../stock/stock-ledger.ts';
import { ledgerOptions } from '../stock/stock-posting.ts';
import { dateText, dayStart, storedValue } from '../stock/stock-documents.ts';
import { businessTodayNow } from '../stock/business-days.ts';
import { linesOf } from '../documents/document-lines.ts';
import { readForUpdate } from '../db/dialect-sql.ts';

type Row = Record<string, unknown>;
interface ReturnRequest { items: Array<{ lineId: number; qty: bigint }>; reason: string | null }

/** `{ items: [{ line_id, qty }], refund_reason? }`: each line once, a positive quantity of at most 4 decimals. */
function readReturn(raw: unknown): ReturnRequest {
  const body = (raw ?? {}) as Row;
  if (typeof body !== 'object' || Array.isArray(body)) throw new AppError('BAD_REQUEST', 'Send { items: [{ line_id, qty }], refund_reason? }');
  const errors: FieldError[] = Object.keys(body).filter((k) => k !== 'items' && k !== 'refund_reason').map((field) => ({ field, code: 'unknown_field', message: 'is not a field of a return' }));
  const items: ReturnRequest['items'] = [];
  if (!Array.isArray(body.items) || body.items.length === 0) errors.push({ field: 'items', code: 'required', message: 'name at least one line to return' });
  else {
    const seen = new Set<number>();
    body.items.forEach((it: Row, i) => {
      for (const k of Object.keys(it ?? {})) if (k !== 'line_id' && k !== 'qty') errors.push({ field: `items.${i}.${k}`, code: 'unknown_field', message: 'is not a field of a returned line' });
      const lineId = Number(it?.line_id);
      if (!Number.isInteger(lineId) || lineId <= 0) errors.push({ field: `items.${i}.line_id`, code: 'required', message: 'is required' });
      else if (seen.has(lineId)) errors.push({ field: `items.${i}.line_id`, code: 'duplicate', message: 'is already on another line of this return' });
      seen.add(lineId);
      let qty = 0n;
      try { qty = parseDecimal(it?.qty as number | string, 4, `items.${i}.qty`); } catch {
        errors.push({ field: `items.${i}.qty`, code: 'decimal', message: 'is not a valid number here' });
        return;
      }
      if (qty <= 0n) errors.push({ field: `items.${i}.qty`, code: 'positive', message: 'must be more than 0' });
      items.push({ lineId, qty });
    });
  }
  const reason = body.refund_reason;
  if (reason !== undefined && reason !== null && (typeof reason !== 'string' || reason.length > 1000)) errors.push({ field: 'refund_reason', code: 'max_length', message: 'is too long' });
  if (errors.length) throw bodyError(errors);
  return { items, reason: typeof reason === 'string' && reason.trim() ? reason.trim() : null };
}

const big = (v: unknown) => BigInt(Math.round(Number(v ?? 0)));

/**
 * The movements that put back `qty` (scaled) of a sale line: its outs, less what earlier returns of the line put
 * back (taken from its first outs), each piece at its share of the value its out took.
 */
function returnMovements(outs: Row[], returnedBefore: bigint, qty: bigint, base: { entity: string; id: number; where: string; date: string }): MovementInput[] {
  const out: MovementInput[] = [];
  let skip = returnedBefore;
  let left = qty;
  for (const r of outs) {
    const q = big(r.qty);
    const skipped = skip < q ? skip : q;
    skip -= skipped;
    const available = q - skipped;
    if (available <= 0n || left <= 0n) continue;
    const take = available < left ? available : left;
    left -= take;
    const value = Math.round(storedValue(Number(q), r.value, r.unit_cost) * Number(take) / Number(q));
    out.push({
      productId: Number(r.product_id), inventoryId: Number(r.inventory_id), locationId: r.product_location_id === null ? null : Number(r.product_location_id),
      lotNo: (r.lot_no as string | null) || null, expiryDate: dateText(r.expiry_date),
      containerId: r.product_container_id === null || r.product_container_id === undefined ? null : Number(r.product_container_id),
      direction: 'in', qty: Number(take), unitCost: r.unit_cost === null ? null : Number(r.unit_cost), value, movementType: String(r.movement_type), movementDate: base.date,
      refDoc: (r.ref_doc as string | null) ?? null, docEntity: base.entity, docId: base.id, docLineId: Number(r.doc_line_id), note: 'return', where: base.where,
    });
  }
  return out;
}

/**
 * Returns part of a posted sale (`document.sale.refunds`): the lines' quantities named go back to the inventory
 * they left (the original movements' lots and value), the money goes back by the sale's payments (engine/pos/
 * return-math.ts), recorded in the refunds lines, the header's returned_amount and returned_vat, and the lines'
 * returned_qty; audited as an update of the sale. Needs the edit flag, like the refund it is a part of. Returning
 * what is left of every line is the refund of the whole sale (its cancel action), so stock and money net to zero.
 */
export async function returnPart(service: EntityService, name: string, id: number, raw: unknown, ctx: RequestContext): Promise<{ data: Row; returned: Row }> {
  const e = service.entity(name);
  const sale = e.document!.sale! as SaleSpec & { refunds: string };
  service.policy.assertAllowed(ctx, e, 'update');
  // a return is part of the refund: what the refund action needs besides edit (its transition's `permission`)
  const cancelAction = e.document!.cancelAction ?? 'cancel';
  const refundKey = e.workflow?.transitions.find((t) => t.action === cancelAction)?.permission;
  if (refundKey && !service.policy.can(ctx, refundKey, 'edit')) {
    throw new AppError('FORBIDDEN', `Your role may not return ${e.labelPlural?.en ?? e.label.en} (needs edit on ${refundKey})`);
  }
  const req = readReturn(raw);
  await service.get(name, id, ctx); // 404 for a sale the caller may not see
  const lines = linesOf(service, e);
  const refundEntity = service.entity(fieldOf(e, sale.refunds)!.entity!);
  const payEntity = service.entity(fieldOf(e, sale.payments)!.entity!);
  const flow = e.workflow!;
  const posted = flow.transitions.find((t) => t.action === (e.document!.postAction ?? 'approve'))!.to;
  let returned: Row = {};
  await service.transaction(e, async (trx: Kysely<any>) => {
    let q = trx.selectFrom(name).selectAll().where('id', '=', id);
    q = readForUpdate(trx, q);
    const order = await q.executeTakeFirstOrThrow();
    if (order[flow.field] !== posted) throw new AppError('INVALID_TRANSITION', `Only a ${posted} sale can be returned; this one is ${String(order[flow.field])}`);
    const parent = lines.entity.parent!.field;
    const items = await trx.selectFrom(lines.entity.name).selectAll().where(parent, '=', id).orderBy('line_no').orderBy('id').execute();
    const byId = new Map(items.map((l) => [Number(l.id), l]));
    const errors: FieldError[] = [];
    const qty = items.map(() => 0n);
    req.items.forEach((it, i) => {
      const line = byId.get(it.lineId);
      if (!line) { errors.push({ field: `items.${i}.line_id`, code: 'link', message: 'is not a line of this sale' }); return; }
      const left = big(line.qty) - big(line.returned_qty);
      if (it.qty > left) errors.push({ field: `items.${i}.qty`, code: 'over_returned', message: `is more than is left to return (${unscale(Number(left), 4)})`, params: { left: unscale(Number(left), 4) } });
      qty[items.indexOf(line)] = it.qty;
    });
    if (errors.length) throw bodyError(errors);
    const state = items.map((l) => ({ qty: big(l.qty), amount: big(l.amount), returned: big(l.returned_qty), exempt: lineVatExempt(l) }));
    const figures = returnFigures(state, qty, { total: big(order.total_amount), vat: big(order.vat_amount), vatRate: big(order.vat_rate) }, { amount: big(order.returned_amount), vat: big(order.returned_vat) });
    if (figures.complete) {
      // what is left of every line: the refund of the whole sale, which reverses every movement (returns included)
      await service.runActionIn(trx, name, id, cancelAction, req.reason ? { refund_reason: req.reason } : {}, ctx);
      returned = { amount: unscale(Number(figures.amount), 2), vat: unscale(Number(figures.vat), 2), refunded_whole: true };
      return;
    }
    const before = await service.readWhole(trx, name, id);
    const pays = await trx.selectFrom(payEntity.name).selectAll().where(payEntity.parent!.field, '=', id).orderBy('line_no').orderBy('id').execute();
    const earlier = await trx.selectFrom(refundEntity.name).selectAll().where(refundEntity.parent!.field, '=', id).execute();
    const refunded = new Map<number, bigint>();
    for (const r of earlier) refunded.set(Number(r.payment_method_id), (refunded.get(Number(r.payment_method_id)) ?? 0n) + big(r.amount));
    const split = refundSplit(figures.amount, pays.map((p) => ({ methodId: Number(p.payment_method_id), type: String(p.payment_type), amount: big(p.amount) })), big(order.change_amount), refunded);
    const now = new Date().toISOString();
    const stamp = { created_at: now, created_by: ctx.userId, updated_at: now, updated_by: ctx.userId };
    if (split.length) {
      await trx.insertInto(refundEntity.name).values(split.map((s, i) => ({
        [refundEntity.parent!.field]: id, line_no: earlier.length + i + 1, refunded_at: now, payment_method_id: s.methodId, payment_type: s.type, amount: Number(s.amount), reason: req.reason, ...stamp,
      }))).execute();
    }
    const outs = await trx.selectFrom(service.registry.held('stockMovements')).selectAll().where('doc_entity', '=', name).where('doc_id', '=', id).where('direction', '=', 'out').orderBy('id').execute();
    const movements: MovementInput[] = [];
    for (const [i, line] of items.entries()) {
      if (qty[i] === 0n) continue;
      await trx.updateTable(lines.entity.name).set({ returned_qty: Number(big(line.returned_qty) + qty[i]!), updated_at: now, updated_by: ctx.userId }).where('id', '=', Number(line.id)).execute();
      const mine = outs.filter((o) => Number(o.doc_line_id) === Number(line.id));
      movements.push(...returnMovements(mine, big(line.returned_qty), qty[i]!, { entity: name, id, where: `items.${i}`, date: dayStart(businessTodayNow()) }));
    }
    const worth = returnLineWorth(state, qty, big(order.total_amount));
    const note = await issueReturnNote(trx, service, e, order, {
      lines: items.map((line, i) => ({ line, qty: qty[i]!, amount: worth[i]! })).filter((l) => l.qty > 0n),
      amount: figures.amount, vat: figures.vat, reason: req.reason, date: businessTodayNow(),
    }, ctx);
    await trx.updateTable(name).set({
      returned_amount: Number(figures.totalReturned), returned_vat: Number(figures.totalVat), updated_at: now, updated_by: ctx.userId,
      ...(req.reason ? { refund_reason: req.reason } : {}),
    }).where('id', '=', id).execute();
    await service.beforeCommit(trx, async () => { await writeMovements(trx, movements, ledgerOptions(trx, ctx, service.registry)); });
    await service.recordUpdate(trx, name, id, before, await service.readWhole(trx, name, id), ctx, 'return');
    returned = {
      amount: unscale(Number(figures.amount), 2), vat: unscale(Number(figures.vat), 2), refunded_whole: false,
      refunds: split.map((s) => ({ payment_method_id: s.methodId, payment_type: s.type, amount: unscale(Number(s.amount), 2) })),
      credit_note: note ? { id: note.id, doc_no: note.doc_no, total_amount: note.total_amount, vat_amount: note.vat_amount } : null,
    };
  });
  return { data: await service.get(name, id, ctx), returned };
}

/** POST /api/{entity}/{id}/return of every sale entity that records refunds (`document.sale.refunds`). */
export function registerSaleReturnRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const entity of service.registry.all() as EntitySchema[]) {
    if (!entity.document?.sale?.refunds) continue;
    const name = entity.name;
    app.post(`/api/${name}/:id/return`, async (request) => {
      const id = Number((request.params as { id: string }).id);
      if (!Number.isInteger(id) || id <= 0) throw new AppError('NOT_FOUND', `There is no ${name} ${String((request.params as { id: string }).id)}`);
      // a cashier's return with a supervisor's PIN (x-supervisor, x-supervisor-pin): the supervisor's authority, this request only
      const key = refundKeyOf(entity);
      const ctx = key ? await withSupervisor(service, request, contextOf(request), entity, key, 'return of part of the sale', id) : contextOf(request);
      const { data, returned } = await returnPart(service, name, id, request.body, ctx);
      return { success: true, data, meta: { returned } };
    });
  }
}
