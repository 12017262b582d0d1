import type { FastifyInstance } from 'fastify';
import { fieldOf, softDeleteColumn } from '../../engine/schema/schema-types.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import { drawerMoves, salePairs, shiftCash } from './shift-rules.ts';

const baht = (satang: unknown) => Number(satang ?? 0) / 100;

/**
 * GET /api/{shift}/{id}/report: the shift's X report while it is open (mid-shift) and its Z report once closed
 * (issue 51 §2): the posted sales (count, total as sold, returned, net), the money taken by payment method, the
 * change given, the cash taken, the cash paid in and out (with their reasons), the expected cash and, after the close, the counted cash and the difference. The
 * same sums the close stores (shiftCash), read from the database in satang. Needs view on the shift and a shift
 * the caller may read.
 */
export function registerShiftReportRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const p of salePairs(service)) {
    app.get(`/api/${p.shift.name}/:id/report`, async (request) => {
      const ctx = contextOf(request);
      service.policy.assertAllowed(ctx, service.entity(p.shift.name), 'read');
      const id = parseRecordId((request.params as { id: string }).id);
      if (id === null) throw new AppError('NOT_FOUND', `${p.shift.name} does not exist`);
      const shift = await service.get(p.shift.name, id, ctx);
      const k = service.db.kysely;
      const flow = p.sale.workflow!;
      const posted = flow.transitions.find((t) => t.action === (p.sale.document?.postAction ?? 'approve'))!.to;
      const soft = softDeleteColumn(p.sale);
      let orders = k.selectFrom(`${p.sale.name} as o`).where(`o.${p.spec.shift}`, '=', id).where(`o.${flow.field}`, '=', posted);
      if (soft) orders = orders.where(`o.${soft}`, '=', 0);
      const totals = await orders.select((eb) => [
        eb.fn.count('o.id').as('n'),
        eb.fn.coalesce(eb.fn.sum('o.total_amount'), eb.lit(0)).as('total'),
        eb.fn.coalesce(eb.fn.sum('o.returned_amount'), eb.lit(0)).as('returned'),
        eb.fn.coalesce(eb.fn.sum('o.change_amount'), eb.lit(0)).as('change'),
      ]).executeTakeFirst();
      const payEntity = fieldOf(p.sale, p.spec.payments)!.entity!;
      const byMethod = await orders.innerJoin(`${payEntity} as pay`, `pay.${p.payParent}`, 'o.id')
        .select((eb) => ['pay.payment_method_id', 'pay.payment_type', eb.fn.coalesce(eb.fn.sum('pay.amount'), eb.lit(0)).as('amount')])
        .groupBy(['pay.payment_method_id', 'pay.payment_type']).orderBy('pay.payment_method_id').execute();
      const cash = await shiftCash(k, p, id);
      const { payIn, payOut } = await drawerMoves(k, p, id);
      const opening = Math.round(Number(shift.opening_cash ?? 0) * 100);
      const open = shift[p.shift.workflow!.field] === p.shift.workflow!.initial;
      return {
        success: true,
        data: {
          kind: open ? 'X' : 'Z', id, shift_no: shift.shift_no, [p.spec.terminal]: shift[p.spec.terminal], opened_at: shift.opened_at, closed_at: shift.closed_at ?? null,
          opening_cash: opening / 100, sales_count: Number(totals?.n ?? 0), sales_total: baht(totals?.total),
          returned_total: baht(totals?.returned), net_sales: baht(Number(totals?.total ?? 0) - Number(totals?.returned ?? 0)),
          payments: byMethod.map((r) => ({ payment_method_id: Number(r.payment_method_id), payment_type: r.payment_type, amount: baht(r.amount) })),
          change_given: baht(totals?.change), cash_taken: cash / 100, pay_in: payIn / 100, pay_out: payOut / 100,
          cash_moves: p.cash ? ((shift[p.spec.shiftCash!] as Record<string, unknown>[] | undefined) ?? []).map((m) => ({ moved_at: m.moved_at, direction: m.direction, amount: m.amount, reason: m.reason })) : [],
          expected_cash: (opening + cash + payIn - payOut) / 100,
          counted_cash: open ? null : shift.counted_cash ?? null, difference: open ? null : shift.difference ?? null,
        },
      };
    });
  }
}
