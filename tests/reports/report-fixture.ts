/**
 * The fixture business of issue 32's report tests: one small company, built through the HTTP API
 * exactly as a user would (so every figure comes from the same posting code the app runs), whose
 * report answers tests/reports/expected-figures.ts states by hand. The story, in date order, is in
 * that file's header; each step here is commented with what it is there for.
 *
 * Dates are business dates (Asia/Bangkok). A document's movements are dated the start of its
 * doc_date in Bangkok (17:00 UTC the day before); the two manual adjustments are dated to the
 * minute on either side of a business-day edge (16:30Z and 17:30Z on 31 October).
 */
import { expect } from 'vitest';
import { StockClient } from '../support/stock-fixtures.ts';
import type { TestApp } from '../support/test-app.ts';
import { thaiTaxId } from '../support/security-fixtures.ts';

type Row = Record<string, any>;

export interface ReportFixture {
  c: StockClient;
  /** ids by the fixture's own codes: products A1…, inventories WH1/WH2, customers, suppliers, company */
  id: Record<string, number>;
  /** each document of the story by its name in expected-figures.ts (SO1, DO3, TI2 …): its id and number */
  doc: Record<string, { entity: string; id: number; doc_no: string }>;
}

export const TAX_IDS = {
  RC: thaiTaxId(105558000101),
  C1: thaiTaxId(105558000102),
  C2: thaiTaxId(105558000103),
  S1: thaiTaxId(105558000104),
  S2: thaiTaxId(105558000105),
  S3: thaiTaxId(310055800010),
};

export async function buildReportFixture(t: TestApp): Promise<ReportFixture> {
  const c = new StockClient(t);
  const id: Record<string, number> = {};
  const doc: ReportFixture['doc'] = {};
  const post = (entity: string, docId: number, action = 'approve') => c.ok(c.action(entity, docId, action));
  const create = (entity: string, body: Row) => c.ok(c.call('POST', `/api/${entity}`, c.admin, body), 201);
  const from = (entity: string, source: string, body: Row) => c.ok(c.call('POST', `/api/${entity}/from/${source}`, c.admin, body), 201);
  const patch = (entity: string, docId: number, body: Row) => c.ok(c.call('PATCH', `/api/${entity}/${docId}`, c.admin, body));
  const keep = (name: string, entity: string, d: Row) => { doc[name] = { entity, id: d.id, doc_no: d.doc_no ?? d.bill_no }; return d; };

  // standalone deliveries (DO3) and a purchase order with a product twice (PO2) need these settings
  await c.settings({ do_create_type: 'create_without_so', is_po_allow_duplicate_product: true });

  id.RC = await c.make('your_company', { code: 'RC', name_th: 'บริษัท รายงาน จำกัด', name_en: 'Report Co., Ltd.', tax_id: TAX_IDS.RC, branch_code: '00000', is_vat_registered: true });
  id.WH1 = await c.make('inventory', { code: 'WH1', name: 'คลังหลัก', inventory_type: 'warehouse', your_company_id: id.RC });
  id.WH2 = await c.make('inventory', { code: 'WH2', name: 'คลังสาขา', inventory_type: 'warehouse', your_company_id: id.RC });
  const product = (code: string, productClass: string, extra: Row = {}) => c.make('product', { code, name_th: `สินค้า ${code}`, product_class: productClass, unit: 'ชิ้น', price: 100, vat_type: 'vat7', ...extra });
  id.A1 = await product('A1', 'class_a', { is_track_lot: true, is_track_expiry: true, shelf_life_days: 180 });
  id.B1 = await product('B1', 'class_b');
  id.AS1 = await product('AS1', 'asset');
  id.PR1 = await product('PR1', 'product');
  id.PR2 = await product('PR2', 'product');
  const customer = (code: string, branch: string) => c.make('customer', { code, customer_type: 'juristic', name_th: `บริษัท ลูกค้า ${code} จำกัด`, tax_id: TAX_IDS[code as 'C1'], branch_code: branch, credit_term_days: 30 });
  id.C1 = await customer('C1', '00000');
  id.C2 = await customer('C2', '00001');
  id.S1 = await c.make('supplier', { code: 'S1', supplier_type: 'juristic', name_th: 'บริษัท ผู้ขาย หนึ่ง จำกัด', tax_id: TAX_IDS.S1, branch_code: '00000' });
  id.S2 = await c.make('supplier', { code: 'S2', supplier_type: 'juristic', name_th: 'บริษัท ผู้ขาย สอง จำกัด', tax_id: TAX_IDS.S2, branch_code: '00002' });
  id.S3 = await c.make('supplier', { code: 'S3', supplier_type: 'individual', name_th: 'นาย ช่าง สาม', tax_id: TAX_IDS.S3, branch_code: '00000' });
  id.RR = await c.make('return_reason', { code: 'RR1', name_th: 'สินค้าชำรุด' });

  // ---- purchasing ----
  const po1 = keep('PO1', 'purchase_order', await create('purchase_order', { doc_date: '2026-10-05', supplier_id: id.S1, your_company_id: id.RC, vat_type: 'exclude',
    items: [{ product_id: id.A1, qty: 100, price: 10 }, { product_id: id.B1, qty: 50, price: 20 }] }));
  await post('purchase_order', po1.id);
  // PO2: PR1 on two lines (po_line_duplicate), received whole by GR3 (which carries the duplicate)
  const po2 = keep('PO2', 'purchase_order', await create('purchase_order', { doc_date: '2026-10-06', supplier_id: id.S1, your_company_id: id.RC, vat_type: 'exclude',
    items: [{ product_id: id.PR1, qty: 10, price: 5 }, { product_id: id.PR1, qty: 5, price: 6 }] }));
  await post('purchase_order', po2.id);

  // GR1 from PO1 into WH1: A1 lot L1 (expires 2026-11-30), B1 without lot at 21.00 where the order said 20.00 (gr_line_unlike_po_line)
  const gr1 = keep('GR1', 'goods_receipt', await from('goods_receipt', 'purchase_order', { ids: [po1.id] }));
  await patch('goods_receipt', gr1.id, { doc_date: '2026-10-10', inventory_id: id.WH1, items: gr1.items.map((l: Row) => ({ id: l.id, product_id: l.product_id, qty: l.qty, price: l.product_id === id.B1 ? 21 : l.price, source_line_id: l.source_line_id, source_entity: l.source_entity,
    ...(l.product_id === id.A1 ? { lot_no: 'L1', expiry_date: '2026-11-30' } : {}) })) });
  await post('goods_receipt', gr1.id);
  // GR2 standalone (gr_not_po) from S2: A1 lot L2, the asset, PR1 on two lines (gr_line_duplicate)
  const gr2 = keep('GR2', 'goods_receipt', await create('goods_receipt', { doc_date: '2026-10-12', supplier_id: id.S2, your_company_id: id.RC, inventory_id: id.WH1,
    items: [{ product_id: id.A1, qty: 30, price: 13, lot_no: 'L2', expiry_date: '2027-03-31' }, { product_id: id.AS1, qty: 2, price: 1000 },
      { product_id: id.PR1, qty: 10, price: 7 }, { product_id: id.PR1, qty: 5, price: 7 }] }));
  await post('goods_receipt', gr2.id);
  // GR3 from PO2 into WH2 (two PR1 lines, one balance row: 15 worth 80.00)
  const gr3 = keep('GR3', 'goods_receipt', await from('goods_receipt', 'purchase_order', { ids: [po2.id] }));
  await patch('goods_receipt', gr3.id, { doc_date: '2026-10-15', inventory_id: id.WH2 });
  await post('goods_receipt', gr3.id);

  // manual counts of PR2 in WH1 on either side of the Bangkok midnight of 31 Oct / 1 Nov
  const adj = (ref: string, at: string, qty: number) => c.ok(c.call('POST', '/api/stock_movement', c.admin, {
    movement_date: at, product_id: id.PR2, inventory_id: id.WH1, direction: 'in', movement_type: 'adjustment', qty, unit_cost: 12.5, ref_doc: ref }), 201);
  await adj('ADJ-1', '2026-10-31T16:30:00.000Z', 2); // 23:30 on 31 Oct in Bangkok
  await adj('ADJ-2', '2026-10-31T17:30:00.000Z', 8); // 00:30 on 1 Nov in Bangkok

  // ---- sales ----
  const so1 = keep('SO1', 'sales_order', await create('sales_order', { doc_date: '2026-10-20', customer_id: id.C1, your_company_id: id.RC, vat_type: 'exclude',
    items: [{ product_id: id.A1, qty: 40, price: 25 }, { product_id: id.B1, qty: 10, price: 50 }] }));
  await post('sales_order', so1.id);
  // SO2: PR1 twice (so_line_duplicate), 10 % off the bill: 180 − 18 = 162 before VAT, 27.00 a unit
  const so2 = keep('SO2', 'sales_order', await create('sales_order', { doc_date: '2026-10-21', customer_id: id.C2, your_company_id: id.RC, vat_type: 'exclude', discount_percent: 10,
    items: [{ product_id: id.PR1, qty: 4, price: 30 }, { product_id: id.PR1, qty: 2, price: 30 }] }));
  await post('sales_order', so2.id);
  const so3 = keep('SO3', 'sales_order', await create('sales_order', { doc_date: '2026-11-02', customer_id: id.C1, your_company_id: id.RC, vat_type: 'include',
    items: [{ product_id: id.B1, qty: 5, price: 107 }] }));
  await post('sales_order', so3.id);
  // never counted: a draft order and a cancelled one
  keep('SO4', 'sales_order', await create('sales_order', { doc_date: '2026-11-03', customer_id: id.C1, your_company_id: id.RC, items: [{ product_id: id.B1, qty: 1, price: 50 }, { product_id: id.B1, qty: 1, price: 50 }] }));
  const so5 = keep('SO5', 'sales_order', await create('sales_order', { doc_date: '2026-11-03', customer_id: id.C1, your_company_id: id.RC, items: [{ product_id: id.B1, qty: 1, price: 50 }] }));
  await post('sales_order', so5.id);
  await post('sales_order', so5.id, 'cancel');

  const deliver = async (name: string, so: Row, date: string, inventory: number, lines?: { source_line_id: number; qty: number }[]) => {
    const d = keep(name, 'delivery_order', await from('delivery_order', 'sales_order', { ids: [so.id], ...(lines ? { lines } : {}) }));
    await patch('delivery_order', d.id, { doc_date: date, inventory_id: inventory });
    return keep(name, 'delivery_order', await post('delivery_order', d.id));
  };
  // DO1: 30 of SO1's 40 A1 (FEFO: lot L1) and all 10 B1, from WH1
  await deliver('DO1', so1, '2026-10-25', id.WH1, [{ source_line_id: so1.items[0].id, qty: 30 }, { source_line_id: so1.items[1].id, qty: 10 }]);
  // DO2: all of SO2 from WH2, its two PR1 lines carried (do_line_duplicate); dated 31 Oct
  await deliver('DO2', so2, '2026-10-31', id.WH2);
  // DO3: standalone (do_not_so) to C2 from WH1
  const do3 = keep('DO3', 'delivery_order', await create('delivery_order', { doc_date: '2026-11-05', customer_id: id.C2, your_company_id: id.RC, inventory_id: id.WH1,
    items: [{ product_id: id.B1, qty: 5 }, { product_id: id.PR2, qty: 3 }] }));
  await post('delivery_order', do3.id);
  // T1: 20 A1 from WH1 to WH2 (FEFO: lot L1), carried at what it took
  const t1 = keep('T1', 'internal_product_transfer', await create('internal_product_transfer', { doc_date: '2026-11-06', from_inventory_id: id.WH1, to_inventory_id: id.WH2,
    items: [{ product_id: id.A1, qty: 20 }] }));
  await post('internal_product_transfer', t1.id);
  // DO4: the last 10 A1 of SO1 (lot L1 again)
  await deliver('DO4', so1, '2026-11-20', id.WH1);
  // DO5: 1 of SO3's 5 B1 (a VAT-included order: 100.00 a unit before VAT), dated 1 Nov, the day BEFORE its order
  // (title_do_unlike_so); posted after DO3, so it takes B1 at 700.00 / 35
  await deliver('DO5', so3, '2026-11-01', id.WH1, [{ source_line_id: so3.items[0].id, qty: 1 }]);

  // ---- tax invoices, notes, receipts ----
  const buyer = (code: 'C1' | 'C2') => ({ buyer_name: `บริษัท ลูกค้า ${code} จำกัด`, buyer_tax_id: TAX_IDS[code], buyer_branch_code: code === 'C1' ? '00000' : '00001', seller_tax_id: TAX_IDS.RC, seller_branch_code: '00000' });
  const invoice = async (name: string, d: Row, date: string, code: 'C1' | 'C2') => {
    await patch('tax_invoice', d.id, { doc_date: date, ...buyer(code) });
    return keep(name, 'tax_invoice', await post('tax_invoice', d.id, 'issue'));
  };
  const ti1 = await invoice('TI1', await from('tax_invoice', 'sales_order', { ids: [so1.id] }), '2026-10-26', 'C1');
  const ti2 = await invoice('TI2', await from('tax_invoice', 'sales_order', { ids: [so2.id] }), '2026-11-03', 'C2');
  await invoice('TI3', await create('tax_invoice', { doc_date: '2026-11-04', customer_id: id.C1, your_company_id: id.RC, vat_type: 'exclude', items: [{ product_id: id.B1, qty: 2, price: 100 }] }), '2026-11-04', 'C1');
  // TI4: issued, then cancelled: never counts
  const ti4 = await invoice('TI4', await create('tax_invoice', { doc_date: '2026-11-10', customer_id: id.C2, your_company_id: id.RC, vat_type: 'exclude', items: [{ product_id: id.B1, qty: 1, price: 999 }] }), '2026-11-10', 'C2');
  await post('tax_invoice', ti4.id, 'cancel');
  // CN1: 107.00 (VAT included) credited on TI1's A1 line, issued 8 Nov: −100.00 / −7.00 in November
  const cn1 = await from('credit_note', 'tax_invoice', { ids: [ti1.id], lines: [{ source_line_id: ti1.items[0].id, amount: 107 }], values: { return_reason_id: id.RR, doc_date: '2026-11-08' } });
  keep('CN1', 'credit_note', await post('credit_note', cn1.id, 'issue'));
  // DN1: 5.00 more on each of TI2's first line's 4 PR1: 20.00 + VAT 1.40, issued 9 Nov
  const dn1 = await from('debit_note', 'tax_invoice', { ids: [ti2.id], lines: [{ source_line_id: ti2.items[0].id, qty: 4 }], values: { return_reason_id: id.RR, doc_date: '2026-11-09' } });
  await patch('debit_note', dn1.id, { items: [{ id: dn1.items[0].id, product_id: id.PR1, qty: 4, price: 5, source_line_id: ti2.items[0].id }] });
  keep('DN1', 'debit_note', await post('debit_note', dn1.id, 'issue'));

  // R1: SO1 paid in full by transfer (1,605.00); R2: a cash receipt typed by hand, 214.00 VAT included; R3 stays a draft
  const r1 = await from('receipt', 'sales_order', { ids: [so1.id], values: { doc_date: '2026-10-28', payment_method: 'transfer' } });
  keep('R1', 'receipt', await post('receipt', r1.id, 'post'));
  const r2 = await create('receipt', { doc_date: '2026-11-05', customer_id: id.C2, your_company_id: id.RC, payment_method: 'cash', vat_type: 'include', items: [{ description: 'ค่าสินค้าหน้าร้าน', amount: 214 }] });
  keep('R2', 'receipt', await post('receipt', r2.id, 'post'));
  keep('R3', 'receipt', await create('receipt', { doc_date: '2026-11-06', customer_id: id.C2, your_company_id: id.RC, payment_method: 'cash', items: [{ description: 'ร่าง', amount: 50 }] }));

  // ---- withholding certificates (the business pays and withholds) ----
  const wht = async (name: string, date: string, supplier: string, form: string, rate: string, paid: number, issue = true) => {
    const w = await create('withholding_tax', { doc_date: date, your_company_id: id.RC, payee_type: 'supplier', supplier_id: id[supplier], income_type: '40_8',
      income_description: 'ค่าบริการ', pnd_form: form, wht_rate: rate, amount_paid: paid });
    return keep(name, 'withholding_tax', issue ? await post('withholding_tax', w.id, 'issue') : w);
  };
  await wht('W1', '2026-10-30', 'S3', 'pnd3', '3', 500); // October: not in November's summary
  await wht('W2', '2026-11-10', 'S1', 'pnd53', '3', 1000); // 30.00
  await wht('W3', '2026-11-11', 'S2', 'pnd53', '1', 333.5); // 3.335 → 3.34
  await wht('W4', '2026-11-12', 'S3', 'pnd3', '3', 333.5); // 10.005 → 10.01
  await wht('W5', '2026-11-13', 'S1', 'pnd53', '5', 800, false); // a draft

  // ---- purchase invoices (the supplier's tax invoices as received) ----
  const pi = async (name: string, d: Row, values: Row, action: string | null = 'approve') => {
    const stored = await patch('purchase_invoice', d.id, values);
    return keep(name, 'purchase_invoice', action ? await post('purchase_invoice', stored.id, action) : stored);
  };
  // PI1: all of GR1 (1,000.00 + 1,050.00 = 2,050.00 + 143.50), the supplier's invoice dated 31 Oct: October's tax month
  await pi('PI1', await from('purchase_invoice', 'goods_receipt', { ids: [gr1.id] }), { doc_date: '2026-11-02', supplier_invoice_no: 'S1-IV-0001', supplier_invoice_date: '2026-10-31' });
  // PI2: typed, 1,070.00 VAT included (1,000.00 + 70.00), from S2
  await pi('PI2', await create('purchase_invoice', { doc_date: '2026-11-03', supplier_id: id.S2, your_company_id: id.RC, vat_type: 'include', items: [{ description: 'ค่าบริการซ่อมบำรุง', qty: 1, price: 1070 }] }),
    { supplier_invoice_no: 'S2-TX-7788', supplier_invoice_date: '2026-11-01' });
  // PI3: the asset line of GR2 (2 × 1,000.00 + 140.00), WHT 1 %
  await pi('PI3', await from('purchase_invoice', 'goods_receipt', { ids: [gr2.id], lines: [{ source_line_id: gr2.items[1].id, qty: 2 }] }),
    { doc_date: '2026-11-15', supplier_invoice_no: 'S2-TX-7790', supplier_invoice_date: '2026-11-14', wht_rate: 1 });
  // PI4 a draft, PI5 posted then cancelled: neither counts
  await pi('PI4', await create('purchase_invoice', { doc_date: '2026-11-16', supplier_id: id.S1, your_company_id: id.RC, items: [{ description: 'ร่าง', qty: 1, price: 10 }] }),
    { supplier_invoice_no: 'S1-IV-0009', supplier_invoice_date: '2026-11-05' }, null);
  const pi5 = await pi('PI5', await create('purchase_invoice', { doc_date: '2026-11-16', supplier_id: id.S1, your_company_id: id.RC, items: [{ description: 'ยกเลิก', qty: 1, price: 10 }] }),
    { supplier_invoice_no: 'S1-IV-0010', supplier_invoice_date: '2026-11-06' });
  await post('purchase_invoice', pi5.id, 'cancel');

  // ---- production (no stock of its own: what a machine made and wasted) and an asset's history ----
  await c.settings({ is_use_production_report: true, is_enable_manufactured_product: true, is_enable_assets: true });
  id.M1 = await c.make('machinery', { code: 'M1', name: 'เครื่องสลิต 1', machine_type: 'slitter', inventory_id: id.WH1 });
  id.CW1 = await c.make('causes_of_waste', { code: 'CW1', name_th: 'เศษจากการตัด', category: 'production' });
  const production = (date: string, waste: number) => create('production_report', { doc_date: date, your_company_id: id.RC, inventory_id: id.WH1, machinery_id: id.M1,
    items: [{ product_id: id.PR1, qty: 50, unit: 'ชิ้น', price: 4, lot_no: 'LP1' }], waste: [{ causes_of_waste_id: id.CW1, product_id: id.PR1, qty: waste, unit: 'ชิ้น' }] });
  const prd1 = keep('PRD1', 'production_report', await production('2026-11-10', 2.5));
  await post('production_report', prd1.id);
  keep('PRD2', 'production_report', await production('2026-11-11', 9)); // a draft: never counts
  id.ST1 = await c.make('staff', { code: 'ST1', first_name_th: 'สมชาย', last_name_th: 'ใจดี' });
  id.AST1 = await c.make('asset', { code: 'AST-01', name: 'รถยก 1', product_id: id.AS1, inventory_id: id.WH1 });
  const assetAction = (action: string, body: Row) => c.ok(c.call('POST', `/api/asset/${id.AST1}/actions/${action}`, c.admin, body));
  await assetAction('borrow', { holder_staff_id: id.ST1, borrowed_until: '2026-12-31' });
  await assetAction('return', {});
  await assetAction('modify', { modify_description: 'เปลี่ยนใบมีด' });
  await assetAction('finish_modify', { modify_cost: 1500 });

  for (const [name, d] of Object.entries(doc)) expect(d.id, name).toBeGreaterThan(0);
  return { c, id, doc };
}
