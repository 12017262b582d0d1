/**
 * Issue 44 §6: the receipt form warns, in Thai, when tax withheld is recorded on a receipt whose sources carry no
 * WHT rate (schema `warnIf` on wht_amount, evaluated live like visibleIf); the warning never blocks a save.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { compileConditions } from './form-model.ts';

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../schemas/${name}.json`), 'utf8')) as EntitySchema;

describe('field warnings', () => {
  const receipt = schema('receipt');
  const conditions = compileConditions(receipt, () => undefined);

  it('warns about WHT on a receipt whose sources carry no rate, in Thai', () => {
    const text = conditions.warning('wht_amount', { wht_amount: 300, sources_wht_rate: 0 });
    expect(text?.th).toContain('50 ทวิ');
    expect(text?.en).toContain('no withholding rate');
  });

  it('is silent with no tax withheld, or when a source carries a rate', () => {
    expect(conditions.warning('wht_amount', { wht_amount: 0, sources_wht_rate: 0 })).toBeNull();
    expect(conditions.warning('wht_amount', { wht_amount: 300, sources_wht_rate: 3 })).toBeNull();
    expect(conditions.warning('payment_method', { wht_amount: 300, sources_wht_rate: 0 })).toBeNull();
  });
});
