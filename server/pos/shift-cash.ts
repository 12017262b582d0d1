import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { parseDecimal, DecimalInputError } from '../../engine/documents/decimal-value.ts';
import { parseRecordId } from '../../engine/validation/record-id.ts';
import { AppError } from '../errors/app-error.ts';
import { bodyError, encodeColumns } from '../crud/record-values.ts';
import type { EntityService } from '../crud/entity-service.ts';
import type { ContextOf } from '../crud/crud-routes.ts';
import type { RequestContext } from '../crud/access-policy.ts';
import { readForUpdate } from '../db/dialect-sql.ts';
import { drawerMoves, salePairs, shiftCash, type SalePair } from './shift-rules.ts';

type Row = Record<string, unknown>;
const MAX_REASON = 200;

/** The body of a pay-in or pay-out: `{ direction: "in" | "out", amount, reason }`, every problem at once. */
function readMove(raw: unknown): { direction: 'in' | 'out'; satang: bigint; reason: string } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new AppError('BAD_REQUEST', 'Send { direction: "in" | "out", amount, reason } as a JSON object');
  const b = raw as Row;
  const errors: FieldError[] = [];
  for (const k of Object.keys(b)) if (!['direction', 'amount', 'reason'].includes(k)) errors.push({ field: k, code: 'unknown_field', message: 'is not a field of a pay-in or pay-out' });
  if (b.direction !== 'in' && b.direction !== 'out') errors.push({ field: 'direction', code: 'enum', message: 'must be "in" (pay in) or "out" (pay out)', params: { allowed: 'in, out' } });
  let satang = 0n;
  try {
    if (typeof b.amount !== 'number' && typeof b.amount !== 'string') throw new DecimalInputError('amount', 'is required');
    satang = parseDecimal(b.amount, 2, 'amount');
    if (satang <= 0n) errors.push({ field: 'amount', code: 'positive', message: 'must be more than 0' });
  } catch (err) {
    if (!(err instanceof DecimalInputError)) throw err;
    errors.push({ field: 'amount', code: b.amount === undefined || b.amount === null ? 'required' : 'decimal', message: err.message });
  }
  const reason = typeof b.reason === 'string' ? b.reason.trim() : '';
  // the reason is what the cashier and the supervisor read at the close: a pay-out without one is refused
  if (!reason) errors.push({ field: 'reason', code: 'required', message: 'is required' });
  else if (reason.length > MAX_REASON) errors.push({ field: 'reason', code: 'max_length', message: `must be at most ${MAX_REASON} characters`, params: { limit: MAX_REASON } });
  if (errors.length) throw bodyError(errors);
  return { direction: b.direction as 'in' | 'out', satang, reason };
}

/**
 * Records cash put into or taken out of an open shift's drawer with its reason (issue 51 §2: pay-in, pay-out),
 * as a line of the shift's `document.sale.shiftCash`, audited as an update of the shift. Needs edit on the shift
 * (what opening and closing it need) and a shift the caller may write. A pay-out may not take more than the drawer
 * should hold (the float, the sales' net cash, paid in less paid out): `over_drawer`. A closed shift: 409.
 */
export async function moveCash(service: EntityService, p: SalePair, id: number, raw: unknown, ctx: RequestContext): Promise<{ data: Row; move: Row }> {
  const shiftEntity = p.shift;
  service.policy.assertAllowed(ctx, shiftEntity, 'update');
  const req = readMove(raw);
  // 404 for a shift the caller may not see; 403 for one they may see but not write (another terminal's company)
  service.policy.assertWritableRow(ctx, shiftEntity, await service.get(shiftEntity.name, id, ctx), 'update');
  const cash = p.cash!;
  const flow = shiftEntity.workflow!;
  let move: Row = {};
  await service.transaction(shiftEntity, async (trx: Kysely<any>) => {
    const shift = await readForUpdate(trx, trx.selectFrom(shiftEntity.name).selectAll().where('id', '=', id)).executeTakeFirstOrThrow();
    if (shift[flow.field] !== flow.initial) throw new AppError('INVALID_TRANSITION', 'The shift is closed: cash is paid in or out of an open shift only');
    if (req.direction === 'out') {
      const { payIn, payOut } = await drawerMoves(trx, p, id);
      const holds = Number(shift.opening_cash ?? 0) + await shiftCash(trx, p, id) + payIn - payOut;
      if (req.satang > BigInt(holds)) {
        const left = (holds / 100).toFixed(2);
        throw bodyError([{ field: 'amount', code: 'over_drawer', message: `is more than the drawer should hold (${left})`, params: { cash: left } }]);
      }
    }
    const before = await service.readWhole(trx, shiftEntity.name, id);
    const count = await trx.selectFrom(cash.entity.name).select((eb) => eb.fn.countAll().as('n')).where(cash.parent, '=', id).executeTakeFirst();
    const now = new Date().toISOString();
    const amount = Number(req.satang) / 100;
    move = { moved_at: now, direction: req.direction, amount, reason: req.reason, user_id: ctx.userId };
    await trx.insertInto(cash.entity.name).values({
      ...encodeColumns(cash.entity, move), [cash.parent]: id, line_no: Number(count?.n ?? 0) + 1,
      created_at: now, created_by: ctx.userId, updated_at: now, updated_by: ctx.userId,
    }).execute();
    await service.recordUpdate(trx, shiftEntity.name, id, before, await service.readWhole(trx, shiftEntity.name, id), ctx, req.direction === 'in' ? 'pay_in' : 'pay_out');
  });
  return { data: await service.get(shiftEntity.name, id, ctx), move };
}

/** POST /api/{shift}/{id}/cash of every shift entity whose sales declare `document.sale.shiftCash`. */
export function registerShiftCashRoutes(app: FastifyInstance, service: EntityService, contextOf: ContextOf): void {
  for (const p of salePairs(service)) {
    if (!p.cash) continue;
    app.post(`/api/${p.shift.name}/:id/cash`, async (request, reply) => {
      const id = parseRecordId((request.params as { id: string }).id);
      if (id === null) throw new AppError('NOT_FOUND', `${p.shift.label.en} does not exist`);
      const { data, move } = await moveCash(service, p, id, request.body, contextOf(request));
      return reply.status(201).send({ success: true, data, meta: { move } });
    });
  }
}
