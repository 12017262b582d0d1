import { DecimalInputError, parseDecimal, roundDiv, toNumber } from './decimal-value.ts';
import { WHT_RATES } from './document-math.ts';

/**
 * The tax a withholding certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย, 50 ทวิ)
 * states: amount paid × rate / 100, rounded half-up to the satang once.
 * In the engine so the server (which stores it) and a form can share it.
 */
export function withholdingTax(amountPaid: number | string | null | undefined, rate: number | string | null | undefined): number {
  if (amountPaid === null || amountPaid === undefined || amountPaid === '') return 0;
  const paid = parseDecimal(amountPaid, 2, 'amount_paid');
  if (paid < 0n) throw new DecimalInputError('amount_paid', 'must not be negative');
  if (rate === null || rate === undefined || rate === '') return 0;
  const r = Number(rate);
  if (!WHT_RATES.includes(r)) throw new DecimalInputError('wht_rate', `must be one of ${WHT_RATES.join(', ')} percent (Thai withholding rates), not ${String(rate)}`);
  return toNumber(roundDiv(paid * BigInt(r), 100n));
}
