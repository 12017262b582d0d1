import { describe, expect, it } from 'vitest';
import type { EntitySchema } from '../schema/schema-types.ts';
import { taxInvoiceRole } from './tax-invoice-role.ts';

const receipt = { name: 'receipt', label: { th: 'ใบเสร็จรับเงิน', en: 'Receipt' }, fields: {}, print: { taxInvoiceTitle: { full: { th: 'ใบเสร็จรับเงิน/ใบกำกับภาษี', en: 'Receipt/Tax invoice' } } } } as unknown as EntitySchema;
const vatCo = { is_vat_registered: true };

describe('taxInvoiceRole', () => {
  it('is the site mode when the schema has its title, the document carries VAT and the issuer is VAT registered', () => {
    expect(taxInvoiceRole(receipt, { vat_amount: 70 }, vatCo, 'full')).toBe('full');
  });
  it('is null otherwise', () => {
    expect(taxInvoiceRole(receipt, { vat_amount: 70 }, vatCo, 'abbreviated')).toBeNull(); // no title for that mode
    expect(taxInvoiceRole(receipt, { vat_amount: 70 }, vatCo, 'none')).toBeNull();
    expect(taxInvoiceRole(receipt, { vat_amount: 0 }, vatCo, 'full')).toBeNull();
    expect(taxInvoiceRole(receipt, { vat_amount: 70 }, { is_vat_registered: false }, 'full')).toBeNull();
    expect(taxInvoiceRole(receipt, { vat_amount: 70 }, null, 'full')).toBeNull();
    expect(taxInvoiceRole({ ...receipt, print: {} } as EntitySchema, { vat_amount: 70 }, vatCo, 'full')).toBeNull();
  });
});

describe('taxInvoiceRole of a posted document (document.taxInvoice.roleField)', () => {
  const stored = { ...receipt, document: { taxInvoice: { roleField: 'tax_invoice_role' } } } as unknown as EntitySchema;
  it('is the role stored at posting, whatever the site setting says now', () => {
    expect(taxInvoiceRole(stored, { vat_amount: 70, tax_invoice_role: 'full' }, vatCo, 'none')).toBe('full');
    expect(taxInvoiceRole(stored, { vat_amount: 70, tax_invoice_role: 'none' }, vatCo, 'full')).toBeNull();
  });
  it('is judged afresh only while nothing is stored (a draft)', () => {
    expect(taxInvoiceRole(stored, { vat_amount: 70, tax_invoice_role: null }, vatCo, 'full')).toBe('full');
  });
});
