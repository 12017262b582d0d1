/**
 * The e-Tax XML of every document type the product issues, checked by ETDA's own XSD (xmllint) and
 * schematron (run here by tests/etax/etda-standard.ts), plus the amounts and codes we put in it.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { etaxDocumentOf, EtaxUnavailable, etaxWarnings, type EtaxSource } from '../../engine/etax/etax-document.ts';
import { etaxXml } from '../../engine/etax/etax-xml.ts';
import { ETAX_TYPES } from '../../engine/etax/etax-codes.ts';
import { ETDA_DIR, ETDA_MISSING, schematronFailures, xsdErrors } from './etda-standard.ts';

if (!ETDA_DIR) console.warn(ETDA_MISSING);

const schema = (name: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, '../../schemas', `${name}.json`), 'utf8')) as EntitySchema;

export const COMPANY = {
  code: 'TPT', name_th: 'บริษัท ไทยพลาสติก จำกัด', tax_id: '0105558000017', branch_code: '00000',
  address_line: '99/12 ถนนพระราม 4', sub_district: '100402', district: '1004', province: 'กรุงเทพมหานคร', postal_code: '10500',
};
export const CUSTOMER = {
  code: 'C1', customer_type: 'juristic', name_th: 'บริษัท ลูกค้า จำกัด', tax_id: '0745540000015', branch_code: '00001',
  address_line: '1 หมู่ 2 ถนนเพชรเกษม', sub_district: 'อ้อมน้อย', district: 'กระทุ่มแบน', province: 'สมุทรสาคร', postal_code: '74130',
};
const products = new Map([[7, { id: 7, code: 'P-001', name_th: 'ฟิล์มยืด' }]]);
const now = '2026-11-20T10:15:00.000Z';
const invoiceRef = { id: 'TPT-IV202611-0001', date: '2026-11-03', typeCode: '388', amountBeforeVat: 11000 };

const cases: Array<[string, EtaxSource]> = [
  ['tax_invoice', {
    entity: schema('tax_invoice'), company: COMPANY, customer: CUSTOMER, products, references: [], now,
    row: {
      doc_no: 'TPT-IV202611-0001', doc_date: '2026-11-03', invoice_type: 'full', vat_type: 'exclude', vat_rate: 7, discount_amount: 100,
      subtotal: 11100, amount_before_vat: 11000, vat_amount: 770, total_amount: 11770, buyer_name: 'บริษัท ลูกค้า จำกัด', buyer_tax_id: '0745540000015', buyer_branch_code: '00001',
      items: [{ product_id: 7, description: 'ฟิล์มยืด 50 ซม.', qty: 10, unit: 'ม้วน', price: 1000, amount: 10000 }, { product_id: 7, qty: 4, unit: 'ม้วน', price: 275, amount: 1100 }],
    },
  }],
  ['receipt', {
    entity: schema('receipt'), company: COMPANY, customer: { ...CUSTOMER, customer_type: 'individual', tax_id: '3100600000011', branch_code: null }, products, references: [], now,
    row: { doc_no: 'RC202611-0001', doc_date: '2026-11-10', vat_type: 'exclude', vat_rate: 7, subtotal: 6420, amount_before_vat: 6000, vat_amount: 420, total_amount: 6420, items: [{ ref_doc: 'BN202611-0001', description: 'รับชำระตามใบวางบิล', amount: 6420 }] },
  }],
  ['credit_note', {
    entity: schema('credit_note'), company: COMPANY, customer: CUSTOMER, products, references: [invoiceRef], now,
    row: { doc_no: 'CN202611-0001', doc_date: '2026-11-12', vat_type: 'exclude', vat_rate: 7, subtotal: 1000, amount_before_vat: 1000, vat_amount: 70, total_amount: 1070, remark: 'สินค้าชำรุด', items: [{ description: 'ลดหนี้ฟิล์มชำรุด', amount: 1000 }] },
  }],
  ['debit_note', {
    entity: schema('debit_note'), company: COMPANY, customer: CUSTOMER, products, references: [invoiceRef], now,
    row: { doc_no: 'DN202611-0001', doc_date: '2026-11-12', vat_type: 'include', vat_rate: 7, subtotal: 535, amount_before_vat: 500, vat_amount: 35, total_amount: 535, items: [{ product_id: 7, qty: 5, unit: 'ม้วน', price: 107, amount: 535 }] },
  }],
  ['billing_note', {
    entity: schema('billing_note'), company: COMPANY, customer: CUSTOMER, products, references: [], now,
    row: {
      bill_no: 'BN202611-0001', bill_date: '2026-11-03', status: 'issued', vat_type: 'exclude', vat_rate: 7, subtotal: 12500, amount_before_vat: 11682.24, vat_amount: 817.76, total_amount: 12500,
      items: [{ ref_doc: 'TPT-IV202611-0001', description: 'ค่าสินค้าตามใบกำกับภาษี', amount: 7500 }, { ref_doc: 'TPT-IV202611-0002', amount: 5000 }],
    },
  }],
  // a POS sale with an abbreviated tax invoice: the slip is also the receipt, so ETDA's T06 (docs/pos.md)
  ['pos_order', {
    entity: schema('pos_order'), company: COMPANY, customer: null, products, references: [], now,
    row: {
      doc_no: 'POS1-R2611-00001', tax_invoice_no: 'POS1-ABB2611-00001', doc_date: '2026-11-20', status: 'paid', invoice_type: 'abbreviated', vat_type: 'include', vat_rate: 7,
      discount_amount: 0, subtotal: 415, amount_before_vat: 387.85, vat_amount: 27.15, total_amount: 415,
      items: [{ product_id: 7, description: 'ฟิล์มยืด', qty: 3, unit: 'ม้วน', price: 120, discount_amount: 36, amount: 324 }, { product_id: 7, qty: 2, unit: 'ม้วน', price: 45.5, amount: 91 }],
    },
  }],
];

describe('e-Tax XML of each document type', () => {
  it.each(cases)('%s: the type code its schema declares', (_name, src) => {
    expect(etaxXml(etaxDocumentOf(src))).toContain(`<ram:TypeCode>${src.entity.document!.etax!.typeCode}</ram:TypeCode>`);
  });

  // skipped, and shown as skipped, where ETDA's files are not at hand (tests/etax/README.md)
  it.skipIf(!ETDA_DIR).each(cases)('%s: ETDA\'s XSD and schematron of its message accept it', (_name, src) => {
    const doc = etaxDocumentOf(src);
    const xml = etaxXml(doc);
    const message = ETAX_TYPES[doc.typeCode].message;
    expect(xsdErrors(xml, message), xml).toBe('');
    expect(schematronFailures(xml, message)).toEqual([]);
  });

  it.each(cases.filter(([n]) => n === 'tax_invoice' || n === 'receipt'))('%s: its cancellation note (T07)', (_name, src) => {
    const xml = etaxXml(etaxDocumentOf(src, true));
    expect(xml).toContain('<ram:TypeCode>T07</ram:TypeCode>');
    expect(xml).toContain(`<ram:IssuerAssignedID>${src.row.doc_no}</ram:IssuerAssignedID>`);
    if (!ETDA_DIR) return;
    expect(xsdErrors(xml, 'CancellationNote'), xml).toBe('');
    expect(schematronFailures(xml, 'CancellationNote')).toEqual([]);
  });

  it('the lines add up to the header exactly, and a note carries the invoice it corrects', () => {
    const doc = etaxDocumentOf(cases[0]![1]);
    expect(doc.lines.reduce((a, l) => a + l.net, 0n)).toBe(doc.taxBasis);
    expect(doc.lines.reduce((a, l) => a + l.vat, 0n)).toBe(doc.tax);
    expect(doc).toMatchObject({ lineTotal: 1110000n, allowance: 10000n, taxBasis: 1100000n, tax: 77000n, grand: 1177000n });
    expect(doc.seller).toMatchObject({ scheme: 'TXID', taxId: '010555800001700000' });
    expect(doc.buyer).toMatchObject({ scheme: 'TXID', taxId: '074554000001500001' });
    const note = etaxDocumentOf(cases[2]![1]);
    // 11,000 invoiced, 1,000 credited: 10,000 is the right value
    expect(note).toMatchObject({ purposeCode: 'CDNG99', purpose: 'สินค้าชำรุด', original: 1100000n, difference: 100000n, lineTotal: 1000000n });
    const xml = etaxXml(note);
    expect(xml).toMatch(/<ram:AdditionalReferencedDocument>\s*<ram:IssuerAssignedID>TPT-IV202611-0001<\/ram:IssuerAssignedID>\s*<ram:IssueDateTime>2026-11-03T00:00:00<\/ram:IssueDateTime>\s*<ram:ReferenceTypeCode>388<\/ram:ReferenceTypeCode>/);
    // a person without a branch is named by the national id
    expect(etaxDocumentOf(cases[1]![1]).buyer).toMatchObject({ scheme: 'NIDN', taxId: '3100600000011' });
  });

  it('a receipt made from a billing note names no reference: ETDA would read it as replacing a cancelled receipt', () => {
    const [, src] = cases[1]!;
    const xml = etaxXml(etaxDocumentOf({ ...src, references: [{ id: 'BN202611-0001', date: '2026-11-03', typeCode: '380', amountBeforeVat: 6000 }] }));
    expect(xml).not.toContain('AdditionalReferencedDocument');
    if (ETDA_DIR) expect(schematronFailures(xml, 'Receipt')).toEqual([]);
  });

  it('refuses what the standard does not cover, and drafts', () => {
    const [, src] = cases[0]!;
    const abbreviated = () => etaxDocumentOf({ ...src, row: { ...src.row, invoice_type: 'abbreviated' } });
    expect(abbreviated).toThrow(EtaxUnavailable);
    expect(() => etaxDocumentOf({ ...src, entity: schema('quotation') })).toThrow(/not a document of the ETDA/);
    expect(() => etaxDocumentOf({ ...src, row: { ...src.row, doc_no: null } })).toThrow(/draft/);
    // a draft that already has its number (series numbered on create) is still a draft; a cancelled one has only its cancellation note
    expect(() => etaxDocumentOf({ ...src, row: { ...src.row, status: 'draft' } })).toThrow(/draft/);
    expect(() => etaxDocumentOf({ ...src, row: { ...src.row, status: 'cancelled' } })).toThrow(/cancelled/);
    expect(etaxDocumentOf({ ...src, row: { ...src.row, status: 'cancelled' } }, true).typeCode).toBe('T07');
    expect(etaxDocumentOf({ ...src, row: { ...src.row, status: 'issued' } }).typeCode).toBe('388');
    expect(() => etaxDocumentOf({ ...cases[2]![1], references: [] })).toThrow(/refers to no tax invoice/);
  });

  it('a POS sale: T06 under its tax invoice number without a buyer; a full tax invoice on request T03 naming the buyer; a plain receipt none', () => {
    const [, src] = cases.find(([n]) => n === 'pos_order')!;
    const abb = etaxDocumentOf(src);
    expect(abb).toMatchObject({ typeCode: 'T06', name: 'ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ', id: 'POS1-ABB2611-00001', taxBasis: 38785n, tax: 2715n, grand: 41500n });
    const xml = etaxXml(abb);
    expect(xml).toContain('<rsm:AbbreviatedTaxInvoice_CrossIndustryInvoice');
    expect(xml).not.toContain('BuyerTradeParty');
    const full = etaxDocumentOf({ ...src, row: { ...src.row, invoice_type: 'full', tax_invoice_no: 'POS1-INV2611-00001', buyer_name: 'บริษัท ผู้ซื้อ จำกัด', buyer_tax_id: '0745540000015', buyer_branch_code: '00002', buyer_address: '1 หมู่ 2 ถนนเพชรเกษม อ้อมน้อย กระทุ่มแบน สมุทรสาคร 74130' } });
    expect(full).toMatchObject({ typeCode: 'T03', name: 'ใบเสร็จรับเงิน/ใบกำกับภาษี', id: 'POS1-INV2611-00001', buyer: { scheme: 'TXID', taxId: '074554000001500002', name: 'บริษัท ผู้ซื้อ จำกัด', address: { postcode: '74130' } } });
    const fullXml = etaxXml(full);
    expect(fullXml).toContain('<rsm:TaxInvoice_CrossIndustryInvoice');
    expect(() => etaxDocumentOf({ ...src, row: { ...src.row, invoice_type: 'none', tax_invoice_no: null } })).toThrow(EtaxUnavailable);
    // refunded: only its cancellation note, which names the abbreviated invoice by its number and code
    const cancel = etaxXml(etaxDocumentOf({ ...src, row: { ...src.row, status: 'refunded' } }, true));
    expect(cancel).toMatch(/<ram:IssuerAssignedID>POS1-ABB2611-00001<\/ram:IssuerAssignedID>[\s\S]*<ram:ReferenceTypeCode>T06<\/ram:ReferenceTypeCode>/);
    expect(() => etaxDocumentOf({ ...src, row: { ...src.row, status: 'refunded' } })).toThrow(/cancelled|ยกเลิก/);
    // the seller rules are numbered one higher in the abbreviated message's schematron
    expect(etaxWarnings(etaxDocumentOf({ ...src, company: { ...COMPANY, district: 'บางรัก' } })).map((w) => w.rule)).toEqual(['ABB-SellerTradeParty-011']);
    if (!ETDA_DIR) return;
    expect(xsdErrors(fullXml, 'TaxInvoice'), fullXml).toBe('');
    expect(schematronFailures(fullXml, 'TaxInvoice')).toEqual([]);
    expect(xsdErrors(cancel, 'CancellationNote'), cancel).toBe('');
    expect(schematronFailures(cancel, 'CancellationNote')).toEqual([]);
    const noCity = etaxXml(etaxDocumentOf({ ...src, company: { ...COMPANY, district: 'บางรัก' } }));
    expect(schematronFailures(noCity, 'AbbreviatedTaxInvoice').join('\n')).toContain('ABB-SellerTradeParty-011');
  });

  it.skipIf(!ETDA_DIR)('the schematron runner and xmllint find a broken document (so a pass above means something)', () => {
    const xml = etaxXml(etaxDocumentOf(cases[0]![1])).replace('<ram:PostcodeCode>10500</ram:PostcodeCode>', '<ram:PostcodeCode>105</ram:PostcodeCode>');
    expect(schematronFailures(xml, 'TaxInvoice').join('\n')).toContain('TIV-SellerTradeParty-007');
    expect(xsdErrors(etaxXml(etaxDocumentOf(cases[0]![1])).replace('<ram:TypeCode>388</ram:TypeCode>', '<ram:TypeCode>999</ram:TypeCode>'), 'TaxInvoice')).not.toBe('');
  });
});
