import { DecimalInputError } from '../../engine/documents/decimal-value.ts';
import { withholdingTax } from '../../engine/documents/withholding-certificate.ts';
import { AppError } from '../errors/app-error.ts';
import type { EntityService } from '../crud/entity-service.ts';

type Row = Record<string, unknown>;

/**
 * A withholding certificate's tax is the server's: amount paid × rate,
 * computed exactly on every write by the engine function a form can share.
 * Any rate but 1, 2, 3 or 5 % is refused.
 */
export function installWithholdingAmounts(service: EntityService): void {
  service.onPrepare((entity, input, before) => {
    if (!entity.fields.tax_amount || !entity.fields.amount_paid || !entity.fields.wht_rate) return;
    if (!('amount_paid' in input) && !('wht_rate' in input) && before) return;
    const all: Row = { ...(before ?? {}), ...input };
    try {
      input.tax_amount = withholdingTax(all.amount_paid as number | null, all.wht_rate as string | null);
    } catch (err) {
      if (!(err instanceof DecimalInputError)) throw err;
      throw new AppError('VALIDATION_FAILED', `${err.field}: ${err.message}`, { fields: [{ field: err.field, code: 'decimal', message: err.message }] });
    }
  });
}
