import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../schema/schema-types.ts';
import { createFromScreen, createFromScreens } from './create-from-labels.ts';

const doc = (name: string, th: string, en: string, from?: EntitySchema['document']): EntitySchema =>
  ({ name, label: { th, en }, kind: 'document', titleField: 'doc_no', fields: {}, document: from } as unknown as EntitySchema);

describe('create-from screens from document.from[]', () => {
  const order = doc('sales_order', 'ใบสั่งขาย', 'Sales order');
  const receipt = doc('receipt', 'ใบเสร็จรับเงิน', 'Receipt', {
    from: [
      { source: 'sales_order', states: ['approved'], label: { th: 'ใบเสร็จรับเงินจากใบสั่งขาย', en: 'Receipts from sales orders' }, action: { th: 'รับชำระ', en: 'Receive payment' }, menu: true },
      { source: 'billing_note', states: ['issued'] },
    ],
  });

  it('takes the declared words, the route /{target}/{source} and the menu flag', () => {
    expect(createFromScreen(receipt, receipt.document!.from![0]!, order)).toEqual({
      target: 'receipt', source: 'sales_order', path: '/receipt/sales_order', menu: true,
      label: { th: 'ใบเสร็จรับเงินจากใบสั่งขาย', en: 'Receipts from sales orders' }, action: { th: 'รับชำระ', en: 'Receive payment' },
    });
  });

  it('makes words from the two labels when a schema declares none', () => {
    const bill = doc('billing_note', 'ใบวางบิล', 'Billing note');
    const s = createFromScreen(receipt, receipt.document!.from![1]!, bill);
    expect(s).toMatchObject({ path: '/receipt/billing_note', menu: false, label: { th: 'ใบเสร็จรับเงินจากใบวางบิล', en: 'Receipt from Billing note' }, action: { th: 'สร้างใบเสร็จรับเงิน', en: 'Create receipt' } });
  });

  it('lists every declared from of every schema', () => {
    expect(createFromScreens([order, receipt], () => undefined).map((s) => s.path)).toEqual(['/receipt/sales_order', '/receipt/billing_note']);
  });
});
