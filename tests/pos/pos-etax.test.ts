/**
 * Issue 33 §0: the tax invoice of a POS sale as ETDA e-Tax XML through the document endpoints, both dialects.
 * An abbreviated one is ETDA's T06 (ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ: the slip is also the receipt) under its
 * tax invoice number, a full one on request T03 naming the buyer, a sale without a tax invoice none (404);
 * a refunded sale has its cancellation note. Checked with ETDA's XSD and schematron when ETDA_STANDARD_DIR
 * (tests/etax/README.md) is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { expectError, thaiTaxId } from '../support/security-fixtures.ts';
import { StockClient } from '../support/stock-fixtures.ts';
import { posShop } from '../support/pos-fixtures.ts';
import { ETDA_DIR, ETDA_MISSING, schematronFailures, xsdErrors } from '../etax/etda-standard.ts';
import type { EtaxMessage } from '../../engine/etax/etax-codes.ts';

type Row = Record<string, any>;
if (!ETDA_DIR) console.warn(ETDA_MISSING);

function expectEtda(xml: string, message: EtaxMessage): void {
  if (!ETDA_DIR) return;
  expect(xsdErrors(xml, message), xml).toBe('');
  expect(schematronFailures(xml, message)).toEqual([]);
}

describe.each(testDialects())('POS e-Tax on %s', (dialect) => {
  let t: TestApp;
  let c: StockClient;
  let shift: number, cash: number, film: number, inv: number;
  let n = 0;
  const sell = async (body: Row): Promise<Row> => {
    const res = await c.call('POST', '/api/pos_order', c.admin, body, { headers: { ...c.admin, 'idempotency-key': `etax-${dialect}-${++n}-key` } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const xmlOf = async (id: number, query = '') => {
    const res = await c.call('GET', `/api/pos_order/${id}/etax.xml${query}`, c.admin);
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    c = new StockClient(t);
    const shop = await posShop(c);
    const { company, pos } = shop;
    inv = shop.inv;
    cash = shop.cash;
    // the seller's structured address ETDA wants: house number, TISI 1099 codes, province, postcode
    await c.call('PATCH', `/api/your_company/${company}`, c.admin, { address_line: '99/12 ถนนพระราม 4', sub_district: '100402', district: '1004', province: 'กรุงเทพมหานคร', postal_code: '10500' });
    film = await c.product({ price: 45.5 });
    await c.receive(inv, [{ product_id: film, qty: 20, price: 30 }]);
    await c.settings({ tax_invoice: 'abbreviated' });
    shift = (await c.call('POST', '/api/pos_shift', c.admin, { pos_id: pos, opening_cash: 500 })).json().data.id;
  });
  afterAll(async () => t?.close());

  it('an abbreviated tax invoice: T06 under its tax invoice number, no buyer, the sale\'s totals', async () => {
    const o = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 2 }], payments: [{ payment_method_id: cash, amount: 100 }] });
    expect(o.invoice_type).toBe('abbreviated');
    const res = await xmlOf(o.id);
    const xml = res.body;
    expect(xml).toContain('<rsm:AbbreviatedTaxInvoice_CrossIndustryInvoice');
    expect(xml).toContain('<ram:TypeCode>T06</ram:TypeCode>');
    expect(xml).toContain('<ram:Name>ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ</ram:Name>');
    expect(xml).toContain(`<ram:ID>${o.tax_invoice_no}</ram:ID>`);
    expect(xml).not.toContain('BuyerTradeParty');
    // 2 × 45.50 = 91.00, VAT included 91 × 7 / 107 = 5.95
    expect(xml).toContain('<ram:GrandTotalAmount>91.00</ram:GrandTotalAmount>');
    expect(xml).toContain('<ram:TaxTotalAmount>5.95</ram:TaxTotalAmount>');
    expect(res.headers['x-etax-warnings']).toBeUndefined();
    expectEtda(xml, 'AbbreviatedTaxInvoice');
    const pdf = await c.call('GET', `/api/pos_order/${o.id}/etax.pdf`, c.admin);
    expect(pdf.statusCode, pdf.body.slice(0, 300)).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
  });

  it('a VAT-exempt product: no VAT on its line, in the sale, the slip and the XML (a tax group at rate 0)', async () => {
    const rice = await c.product({ price: 50, vat_type: 'exempt' });
    await c.receive(inv, [{ product_id: rice, qty: 10, price: 30 }]);
    const o = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 2 }, { product_id: rice, qty: 2 }], payments: [{ payment_method_id: cash, amount: 200 }] });
    // 91.00 taxed (VAT 91 × 7 / 107 = 5.95) + 100.00 exempt = 191.00
    expect(o).toMatchObject({ total_amount: 191, vat_amount: 5.95, amount_before_vat: 185.05 });
    expect(o.items.map((l: Row) => l.vat_type)).toEqual(['vat7', 'exempt']);
    const xml = (await xmlOf(o.id)).body;
    expect(xml).toMatch(/<ram:CalculatedRate>7(\.00)?<\/ram:CalculatedRate>\s*<ram:BasisAmount>85\.05<\/ram:BasisAmount>\s*<ram:CalculatedAmount>5\.95<\/ram:CalculatedAmount>/);
    expect(xml).toMatch(/<ram:CalculatedRate>0<\/ram:CalculatedRate>\s*<ram:BasisAmount>100\.00<\/ram:BasisAmount>\s*<ram:CalculatedAmount>0\.00<\/ram:CalculatedAmount>/);
    expectEtda(xml, 'AbbreviatedTaxInvoice');
    const slip = await c.call('GET', `/api/pos_order/${o.id}/slip`, c.admin);
    expect(slip.statusCode).toBe(200);
    const lines = execFileSync('pdftotext', ['-layout', '-', '-'], { input: slip.rawPayload }).toString('utf8').replace(/\u200b/g, '');
    expect(lines).toMatch(/\(ยกเว้น\s*VAT\)/);
    // the slip's totals: the exempt part, the taxed part before VAT, the VAT
    expect(lines).toMatch(/มูลค่าสินค้ายกเว้นภาษี\s+100\.00/);
    expect(lines).toMatch(/มูลค่าสินค้ามีภาษีก่อนภาษี\s+85\.05/);
    // half of it back: one unit of each, 45.50 with VAT 2.98 and 50.00 without
    const back = await c.call('POST', `/api/pos_order/${o.id}/return`, c.admin, { items: o.items.map((l: Row) => ({ line_id: l.id, qty: 1 })) });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().meta.returned).toMatchObject({ amount: 95.5, vat: 2.98 });
  });

  it('a full tax invoice on request: T03 naming the buyer by tax id and branch', async () => {
    const o = await sell({
      pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }],
      invoice_type: 'full', buyer_name: 'บริษัท ผู้ซื้อ จำกัด', buyer_tax_id: thaiTaxId(105558001), buyer_branch_code: '00001', buyer_address: '1 หมู่ 2 ถนนเพชรเกษม อ้อมน้อย กระทุ่มแบน สมุทรสาคร 74130',
    });
    const xml = (await xmlOf(o.id)).body;
    expect(xml).toContain('<rsm:TaxInvoice_CrossIndustryInvoice');
    expect(xml).toContain('<ram:TypeCode>T03</ram:TypeCode>');
    expect(xml).toContain(`<ram:ID>${o.tax_invoice_no}</ram:ID>`);
    expect(xml).toContain(`<ram:ID schemeID="TXID">${thaiTaxId(105558001)}00001</ram:ID>`);
    expect(xml).toContain('<ram:PostcodeCode>74130</ram:PostcodeCode>');
    expectEtda(xml, 'TaxInvoice');
  });

  it('a sale without a tax invoice has no e-Tax form; a refunded one only its cancellation note', async () => {
    // with the site's tax_invoice setting 'full' a sale gives a receipt only, unless the buyer asks for a full tax invoice
    await c.settings({ tax_invoice: 'full' });
    try {
      const plain = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }] });
      expect(plain.invoice_type).toBe('none');
      expectError(await c.call('GET', `/api/pos_order/${plain.id}/etax.xml`, c.admin), 404, 'ETAX_NOT_SUPPORTED');
    } finally {
      await c.settings({ tax_invoice: 'abbreviated' });
    }
    const o = await sell({ pos_shift_id: shift, items: [{ product_id: film, qty: 1 }], payments: [{ payment_method_id: cash, amount: 50 }] });
    expect((await c.call('POST', `/api/pos_order/${o.id}/actions/refund`, c.admin, { refund_reason: 'ลูกค้าคืน' })).statusCode).toBe(200);
    expectError(await c.call('GET', `/api/pos_order/${o.id}/etax.xml`, c.admin), 409, 'ETAX_INCOMPLETE');
    const cancel = (await xmlOf(o.id, '?cancellation=1')).body;
    expect(cancel).toContain('<ram:TypeCode>T07</ram:TypeCode>');
    expect(cancel).toMatch(new RegExp(`<ram:IssuerAssignedID>${o.tax_invoice_no}</ram:IssuerAssignedID>[\\s\\S]*<ram:ReferenceTypeCode>T06</ram:ReferenceTypeCode>`));
    expectEtda(cancel, 'CancellationNote');
  });
});
