// @vitest-environment happy-dom
/**
 * The withholding certificate form computes its tax as it is typed, with the
 * engine function the server stores it with (issue 9: one code for form and server).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { withholdingTax } from '../../../engine/documents/withholding-certificate.ts';
import { hasWithholdingTax, liveWithholdingTax } from './use-document-totals.ts';

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../schemas/${name}.json`), 'utf8')) as EntitySchema;

describe('withholding tax in the form', () => {
  it('applies to the withholding certificate, not to other documents', () => {
    expect(hasWithholdingTax(schema('withholding_tax'))).toBe(true);
    expect(hasWithholdingTax(schema('quotation'))).toBe(false);
  });

  it('shows the tax as the user types, rounded half-up to the satang like the server', () => {
    const typed: [number | string, string, number][] = [
      ['333.50', '3', 10.01], // 10.005 → 10.01
      [18500, '1', 185],
      ['12345.67', '3', 370.37],
      ['45000', '5', 2250],
      ['0.5', '1', 0.01], // 0.005 → 0.01
      ['0.4', '1', 0],
    ];
    for (const [paid, rate, tax] of typed) {
      expect(liveWithholdingTax({ amount_paid: paid, wht_rate: rate }), `${paid} @ ${rate}%`).toBe(tax);
      expect(liveWithholdingTax({ amount_paid: paid, wht_rate: rate })).toBe(withholdingTax(paid, rate));
    }
  });

  it('leaves the last value standing while the input cannot be computed yet', () => {
    expect(liveWithholdingTax({ amount_paid: '12.', wht_rate: '3' })).toBeUndefined();
    expect(liveWithholdingTax({ amount_paid: '-5', wht_rate: '3' })).toBeUndefined();
    expect(liveWithholdingTax({ amount_paid: '100', wht_rate: '4' })).toBeUndefined();
    expect(liveWithholdingTax({ amount_paid: '', wht_rate: '3' })).toBe(0);
  });
});
