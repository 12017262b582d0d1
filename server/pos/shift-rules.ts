import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { SaleSpec } from '../../engine/schema/document-spec-types.ts';
import { fieldOf, softDeleteColumn } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import { encodeColumns } from '../crud/record-values.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { lockRows } from '../db/dialect-sql.ts';

type Row = Record<string, unknown>;

/** A sale entity and the shift entity its `sale.shift` links to. */
export interface SalePair { sale: EntitySchema; spec: SaleSpec; shift: EntitySchema; payParent: string; refundParent?: string; cash?: { entity: EntitySchema; parent: string } }

export function salePairs(service: EntityService): SalePair[] {
  const out: SalePair[] = [];
  for (const e of service.registry.all()) {
    const spec = e.document?.sale;
    const target = spec ? fieldOf(e, spec.shift)?.entity : undefined;
    const shift = target ? service.registry.get(target) : undefined;
    const pay = spec ? service.registry.get(fieldOf(e, spec.payments)?.entity ?? '') : undefined;
    const refunds = spec?.refunds ? service.registry.get(fieldOf(e, spec.refunds)?.entity ?? '') : undefined;
    const cash = spec?.shiftCash && shift ? service.registry.get(fieldOf(shift, spec.shiftCash)?.entity ?? '') : undefined;
    if (spec && shift && pay?.parent) out.push({ sale: e, spec, shift, payParent: pay.parent.field, refundParent: refunds?.parent?.field, ...(cash?.parent ? { cash: { entity: cash, parent: cash.parent.field } } : {}) });
  }
  return out;
}

/**
 * A shift's cash, in satang: what its posted sales took in cash, less the change they gave and the cash their
 * partial returns gave back. A refunded sale counts nothing (its cash went back). Money is stored as integer satang, so the sums are exact in SQL.
 */
export async function shiftCash(trx: Kysely<any>, p: SalePair, shiftId: number): Promise<number> {
  const flow = p.sale.workflow!;
  const posted = flow.transitions.find((t) => t.action === (p.sale.document?.postAction ?? 'approve'))!.to;
  const payEntity = fieldOf(p.sale, p.spec.payments)!.entity!;
  const parent = p.payParent;
  const soft = softDeleteColumn(p.sale);
  let orders = trx.selectFrom(`${p.sale.name} as o`).where(`o.${p.spec.shift}`, '=', shiftId).where(`o.${flow.field}`, '=', posted);
  if (soft) orders = orders.where(`o.${soft}`, '=', 0);
  const cashIn = await orders.innerJoin(`${payEntity} as pay`, `pay.${parent}`, 'o.id')
    .where('pay.payment_type', '=', 'cash')
    .select((eb) => eb.fn.coalesce(eb.fn.sum('pay.amount'), eb.lit(0)).as('n')).executeTakeFirst();
  const change = await orders.select((eb) => eb.fn.coalesce(eb.fn.sum('o.change_amount'), eb.lit(0)).as('n')).executeTakeFirst();
  // cash a partial return gave back out of the drawer (document.sale.refunds)
  const refundEntity = p.spec.refunds ? fieldOf(p.sale, p.spec.refunds)?.entity : undefined;
  const refundParent = refundEntity ? p.refundParent : undefined;
  const cashOut = refundEntity && refundParent
    ? await orders.innerJoin(`${refundEntity} as rf`, `rf.${refundParent}`, 'o.id').where('rf.payment_type', '=', 'cash')
      .select((eb) => eb.fn.coalesce(eb.fn.sum('rf.amount'), eb.lit(0)).as('n')).executeTakeFirst()
    : null;
  return Number(cashIn?.n ?? 0) - Number(change?.n ?? 0) - Number(cashOut?.n ?? 0);
}

/** Cash paid into and out of a shift's drawer (`document.sale.shiftCash`), in satang; zeros without it. */
export async function drawerMoves(trx: Kysely<any>, p: SalePair, shiftId: number): Promise<{ payIn: number; payOut: number }> {
  if (!p.cash) return { payIn: 0, payOut: 0 };
  const rows = await trx.selectFrom(p.cash.entity.name).where(p.cash.parent, '=', shiftId)
    .select((eb) => ['direction', eb.fn.coalesce(eb.fn.sum('amount'), eb.lit(0)).as('n')]).groupBy('direction').execute();
  const of = (d: string) => Number(rows.find((r) => r.direction === d)?.n ?? 0);
  return { payIn: of('in'), payOut: of('out') };
}

/**
 * Shifts of the sale entities (`document.sale`, server/pos/):
 * - a terminal has at most one open shift (the shift's workflow `initial` state);
 * - closing (the transition out of it, which takes `counted_cash`) needs the counted cash, and stores the cash
 *   taken, the expected cash (opening float + cash taken) and the difference (counted − expected), with the time;
 *   a closed shift is locked by its workflow state.
 */
export function installShiftRules(service: EntityService): void {
  const pairs = () => salePairs(service);
  const pairOf = (entity: string) => pairs().find((p) => p.shift.name === entity);
  service.onWrite(async (trx, e) => {
    const p = pairOf(e.entity);
    if (!p || e.action !== 'create' || !e.after) return;
    const terminal = p.spec.terminal;
    const flow = p.shift.workflow!;
    // two shifts opened at once on one terminal: the terminal's row is locked (PostgreSQL), so the second waits and
    // then sees the first (the per-terminal number series serializes them today too; this does not depend on it);
    // SQLite has one writer at a time
    await lockRows(trx, trx.selectFrom(fieldOf(p.shift, terminal)!.entity!).select('id').where('id', '=', Number(e.after[terminal])));
    const soft = softDeleteColumn(p.shift);
    let q = trx.selectFrom(p.shift.name).select('id').where(terminal, '=', Number(e.after[terminal])).where(flow.field, '=', flow.initial).where('id', '<>', e.id);
    if (soft) q = q.where(soft, '=', 0);
    // the stock inventory and company are the terminal's (filled from it): another value is refused
    const row = await trx.selectFrom(fieldOf(p.shift, terminal)!.entity!).selectAll().where('id', '=', Number(e.after[terminal])).executeTakeFirst();
    const wrong = ['inventory_id', 'your_company_id'].filter((f) => fieldOf(p.shift, f) && row && e.after![f] !== null && Number(e.after![f]) !== Number(row[f]));
    if (wrong.length) {
      throw new AppError('VALIDATION_FAILED', `${wrong.join(', ')}: must be the terminal's`, { fields: wrong.map((field) => ({ field, code: 'invalid', message: 'must be the terminal\'s' })) });
    }
    if (await q.executeTakeFirst()) {
      throw new AppError('VALIDATION_FAILED', `${terminal}: the terminal already has an open shift; close it first`, { fields: [{ field: terminal, code: 'shift_already_open', message: 'already has an open shift: close it first' }] });
    }
  }, (entity) => !!pairOf(entity.name));
  service.onAction(async (trx, e) => {
    const p = pairOf(e.entity.name);
    if (!p || e.from !== p.shift.workflow!.initial) return;
    const counted = e.after.counted_cash;
    if (counted === null || counted === undefined) {
      throw new AppError('VALIDATION_FAILED', 'counted_cash: is required to close the shift', { fields: [{ field: 'counted_cash', code: 'required', message: 'is required' }] });
    }
    const cash = await shiftCash(trx, p, e.id);
    const { payIn, payOut } = await drawerMoves(trx, p, e.id);
    const opening = Math.round(Number(e.after.opening_cash ?? 0) * 100);
    // the drawer holds the float, the sales' net cash, and what was paid in less what was paid out
    const expected = opening + cash + payIn - payOut;
    const values: Row = { cash_sales: cash / 100, expected_cash: expected / 100, difference: (Math.round(Number(counted) * 100) - expected) / 100, closed_at: businessClock.now().toISOString() };
    await trx.updateTable(p.shift.name).set(encodeColumns(p.shift, values)).where('id', '=', e.id).execute();
    e.recordWritten = true;
  }, (entity) => !!pairOf(entity.name));
}
