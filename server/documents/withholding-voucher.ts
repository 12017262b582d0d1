import type { Kysely } from 'kysely';
import { softDeleteColumn, type EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { unscaled } from './document-lines.ts';
import { readForShare } from '../db/dialect-sql.ts';
import { cancelledState } from './cancel-guard.ts';

type Row = Record<string, unknown>;

/** The field of a withholding certificate naming the payment voucher the tax was withheld on. */
const VOUCHER_LINK = 'payment_voucher_id';
const satang = (v: unknown) => Math.round(Number(v ?? 0) * 100);
const baht = (s: number) => (s / 100).toFixed(2);

/** A certificate entity: the tax it states (`tax_amount`) and a link to the voucher it was withheld on. */
const isCertificate = (e: EntitySchema) => !!e.fields.tax_amount && e.fields[VOUCHER_LINK]?.type === 'link';

/**
 * A withholding certificate made from a payment voucher (issue 50) states the tax that voucher withheld, and a
 * voucher has one live certificate: a certificate whose tax differs from the voucher's `wht_amount` is refused
 * (`400 VALIDATION_FAILED`, code `wht_voucher_tax` on `tax_amount`), judged in the write's transaction, on the
 * stored row, after the tax was worked out (withholding-amounts.ts).
 *
 * One live certificate per voucher is the schema's unique index over the live certificates (`indexes[].live`):
 * two requests crossing each other cannot both pass it, and the loser answers `409 CONFLICT` (constraint-errors.ts).
 * Before the write, a new certificate of a voucher that has one is refused here with the same code, naming the
 * certificate (reason `wht_voucher_taken`), which the index's answer cannot.
 */
export function installWithholdingVoucher(service: EntityService): void {
  service.onCreateDefaults(async (k, entity, body) => {
    if (!isCertificate(entity)) return;
    const voucherId = body[VOUCHER_LINK];
    if (typeof voucherId !== 'number' || !Number.isSafeInteger(voucherId)) return;
    const voucherEntity = service.entity(entity.fields[VOUCHER_LINK]!.entity!);
    const voucher = await k.selectFrom(voucherEntity.name).select(['id', voucherEntity.titleField]).where('id', '=', voucherId).executeTakeFirst() as Row | undefined;
    if (voucher) await refuseSecond(k, entity, voucherId, String(voucher[voucherEntity.titleField] ?? voucher.id));
  });
  service.onWrite(async (trx, e) => {
    if (e.action === 'delete' || !e.after) return;
    const entity = service.entity(e.entity);
    const voucherId = e.after[VOUCHER_LINK];
    if (voucherId === null || voucherId === undefined || voucherId === '') return;
    const status = entity.workflow?.field;
    const final = entity.workflow?.states.filter((s) => s.final).map((s) => s.value) ?? [];
    // a cancelled certificate is history: nothing to judge
    if (status && final.includes(String(e.after[status]))) return;
    const moved = !e.before || e.before[VOUCHER_LINK] !== voucherId || e.before.tax_amount !== e.after.tax_amount
      || (status !== undefined && e.before[status] !== e.after[status]);
    if (!moved) return;
    const voucherEntity = service.entity(entity.fields[VOUCHER_LINK]!.entity!);
    // FOR SHARE (PostgreSQL): a cancel of the voucher crossing this write waits for it and then finds this
    // certificate holding it (onCancel: restrict), or this write waits for the cancel and finds the voucher cancelled
    const voucher = await readForShare(trx, trx.selectFrom(voucherEntity.name).selectAll().where('id', '=', Number(voucherId))).executeTakeFirst() as Row | undefined;
    if (!voucher) return; // the link check answers for a voucher that is not there
    const no = String(voucher[voucherEntity.titleField] ?? voucher.id);
    const gone = cancelledState(voucherEntity);
    if (gone !== null && voucher[voucherEntity.workflow!.field] === gone) {
      throw new AppError('VALIDATION_FAILED', `${VOUCHER_LINK}: payment voucher ${no} is cancelled`, {
        fields: [{ field: VOUCHER_LINK, code: 'link_filter', message: `payment voucher ${no} is cancelled` }],
      });
    }
    const withheld = satang(unscaled(voucherEntity, 'wht_amount', Number(voucher.wht_amount ?? 0)));
    if (satang(e.after.tax_amount) !== withheld) {
      throw new AppError('VALIDATION_FAILED', `tax_amount: must be ${baht(withheld)}, the tax withheld on payment voucher ${no}`, {
        fields: [{ field: 'tax_amount', code: 'wht_voucher_tax', message: `must be ${baht(withheld)}, the tax withheld on ${no}`, params: { withheld: baht(withheld), voucher: no } }],
      });
    }
  }, isCertificate);
}

async function refuseSecond(k: Kysely<any>, entity: EntitySchema, voucherId: number, no: string): Promise<void> {
  const status = entity.workflow?.field;
  const final = entity.workflow?.states.filter((s) => s.final).map((s) => s.value) ?? [];
  let q = k.selectFrom(entity.name).select(['id', entity.titleField]).where(VOUCHER_LINK, '=', voucherId);
  if (status && final.length) q = q.where((eb) => eb.or([eb(status, 'not in', final), eb(status, 'is', null)]));
  const soft = softDeleteColumn(entity);
  if (soft) q = q.where(soft, '=', 0);
  const other = await q.executeTakeFirst() as Row | undefined;
  if (!other) return;
  const otherNo = String(other[entity.titleField] ?? `#${String(other.id)}`);
  throw new AppError('CONFLICT', `Payment voucher ${no} has a certificate already (${otherNo}): cancel that one first`, {
    fields: [{ field: VOUCHER_LINK, code: 'wht_voucher_taken', message: `has a certificate already (${otherNo})`, params: { voucher: no, certificate: otherNo } }],
  }, { reason: 'wht_voucher_taken', voucher: no, certificate: otherNo });
}
