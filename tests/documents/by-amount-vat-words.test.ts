/**
 * Issue 48 §3, followed to every by-amount document (issue 52 §5): a billing note's, a receipt's, a credit note's and
 * a payment voucher's lines are amounts with the VAT in them whatever the document's `vat_type`
 * (engine/documents/document-totals.ts), so no VAT option of theirs may say the amounts are without VAT: "exclude"
 * reads "รวม VAT แล้ว (ต้นทางคิด VAT แยกจากราคา)", as the receipt made from a bill shows it. The totals prove the words:
 * a bill of 10,700 "exclude" is 10,700 with 700 VAT in it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { documentTotals } from '../../engine/documents/document-totals.ts';

const dir = join(import.meta.dirname, '../../schemas');
const byAmount = readdirSync(dir).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as EntitySchema)
  .filter((e) => e.document?.byAmount && e.fields.vat_type);

describe('the VAT words of by-amount documents', () => {
  it('covers the billing note, receipt, credit note and payment voucher', () => {
    expect(byAmount.map((e) => e.name).sort()).toEqual(['billing_note', 'credit_note', 'payment_voucher', 'receipt']);
  });

  it.each(byAmount.map((e) => [e.name, e] as const))('%s says its amounts include the VAT', (_name, e) => {
    const label = (v: string) => e.fields.vat_type!.options!.find((o) => o.value === v)!.label;
    expect(label('exclude').th).toBe('รวม VAT แล้ว (ต้นทางคิด VAT แยกจากราคา)');
    expect(label('include').th).toBe('รวม VAT ในราคา');
    for (const o of e.fields.vat_type!.options!) expect(o.label.th, `${e.name}.vat_type ${o.value}`).not.toMatch(/ไม่รวม VAT|แยก VAT \(/);
  });

  it('counts a bill of 10,700 with VAT "exclude" as 10,700, of which 700 is VAT: the words are the figures', () => {
    const t = documentTotals({ bill_date: '2026-11-20', vat_type: 'exclude' }, [{ amount: 10700 }], '2026-11-20', true);
    expect(t).toMatchObject({ total_amount: 10700, vat_amount: 700, amount_before_vat: 10000 });
  });
});
