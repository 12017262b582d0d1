/**
 * Issue 32 §6: each report's API answer equals the figures worked out by hand for the fixture
 * business (tests/reports/expected-figures.ts), on both dialects. Rows are compared in the
 * report's order, on the contract's row keys; totals on the contract's total keys.
 * A report whose file has not landed yet (r-engine's class and backdate reports) is skipped, by
 * name, so the same test covers it the moment its file exists.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { testDialects } from '../support/test-databases.ts';
import { buildReportFixture, TAX_IDS, type ReportFixture } from './report-fixture.ts';
import * as X from './expected-figures.ts';
import { businessTodayNow } from '../../server/stock/business-days.ts';

type Row = Record<string, any>;
const has = (name: string) => existsSync(resolve(import.meta.dirname, `../../schemas/reports/${name}.json`));

describe.each(testDialects())('report figures on %s', (dialect) => {
  let t: TestApp;
  let f: ReportFixture;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    f = await buildReportFixture(t);
  }, 120_000);
  afterAll(async () => t?.close());

  const report = async (name: string, query: Record<string, string | number> = {}, path = name): Promise<{ rows: Row[]; totals: Row; count: number }> => {
    const qs = new URLSearchParams(Object.entries({ limit: 1000, ...query }).map(([k, v]) => [k, String(v)])).toString();
    const res = await f.c.call('GET', `/api/report/${path}?${qs}`, f.c.admin);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return { rows: body.data.rows, totals: body.data.totals, count: body.meta.total_count };
  };
  /** The fixture's document names (SO1 …) become the numbers the server gave them; ADJ-1 and the like stay. */
  const numbered = (rows: Row[]): Row[] => rows.map((r) => {
    const out = { ...r };
    for (const k of ['doc_no', 'so_doc_no', 'invoice_no']) if (typeof r[k] === 'string' && f.doc[r[k] as string]) out[k] = f.doc[r[k] as string]!.doc_no;
    return out;
  });
  /** The answer on the expected keys only; numbers compared as numbers (a decimal string "3100.00" is 3100). */
  const shape = (rows: Row[], keys: string[]): Row[] => rows.map((r) => Object.fromEntries(keys.map((k) => [k, typeof r[k] === 'string' && /^-?\d+(\.\d+)?$/.test(r[k]) && !['doc_no', 'lot_no', 'tax_id', 'branch_code', 'supplier_invoice_no'].includes(k) ? Number(r[k]) : r[k] ?? null])));
  const sameRows = async (name: string, query: Record<string, string | number>, expected: Row[], path = name) => {
    const got = await report(name, query, path);
    const want = numbered(expected);
    const keys = want.length ? Object.keys(want[0]!) : [];
    expect(shape(got.rows, keys), name).toEqual(want);
    expect(got.count).toBe(want.length);
    return got;
  };
  const sameTotals = (got: { totals: Row }, want: Row) => expect(shape([got.totals], Object.keys(want))[0]).toEqual(want);
  const RANGE = { date_from: '2026-10-01', date_to: '2026-11-30' };

  it.skipIf(!has('stock_balance_all'))('stock_balance_all: on hand now per product × inventory, at moving-average value', async () => {
    const got = await sameRows('stock_balance_all', {}, X.STOCK_BALANCE_ALL);
    sameTotals(got, X.STOCK_BALANCE_ALL_TOTALS);
  });

  for (const [name, rows] of Object.entries(X.STOCK_BALANCE_BY_CLASS)) {
    it.skipIf(!has(name))(`${name}: only products of its product_class`, async () => {
      await sameRows(name, {}, rows);
    });
  }

  it.skipIf(!has('inventory_stock_balance'))('inventory_stock_balance: one inventory, by parameter and by path', async () => {
    await sameRows('inventory_stock_balance', { selectedInventory: f.id.WH2! }, X.INVENTORY_STOCK_BALANCE_WH2);
    await sameRows('inventory_stock_balance', {}, X.INVENTORY_STOCK_BALANCE_WH2, `inventory_stock_balance/${f.id.WH2}`);
  });

  it.skipIf(!has('backdate_stock_balance'))('backdate_stock_balance: the ledger up to the end of a business day (17:30Z is the next day)', async () => {
    await sameRows('backdate_stock_balance', { as_of: '2026-10-31' }, X.BACKDATE_2026_10_31);
    await sameRows('backdate_stock_balance', { as_of: '2026-11-01' }, X.BACKDATE_2026_11_01);
    await sameRows('backdate_stock_balance', { as_of: '2026-10-09' }, X.BACKDATE_2026_10_09);
  });

  it.skipIf(!has('expiration_report'))('expiration_report: lots on hand expiring by the end of the month', async () => {
    await sameRows('expiration_report', { expirationMonth: '2026-11' }, X.EXPIRATION_2026_11);
    await sameRows('expiration_report', { expirationMonth: '2027-03' }, X.EXPIRATION_2027_03);
    await sameRows('expiration_report', { expirationMonth: '2026-10' }, X.EXPIRATION_2026_10);
  });

  it('stock_movement: one row per ledger movement, by business date', async () => {
    const nov = await sameRows('stock_movement', { date_from: '2026-11-01', date_to: '2026-11-30' }, X.STOCK_MOVEMENT_NOV);
    sameTotals(nov, { qty_in: 28, qty_out: 39 });
    await sameRows('stock_movement', { date_from: '2026-10-31', date_to: '2026-10-31' }, X.STOCK_MOVEMENT_OCT_31);
    // one inventory
    await sameRows('stock_movement', { date_from: '2026-11-01', date_to: '2026-11-30', selectedInventory: f.id.WH2! }, X.STOCK_MOVEMENT_NOV.filter((r) => r.inventory_code === 'WH2'));
  });

  it('stock_profit_statement: sales at the order line\'s pre-VAT price against the cost the deliveries took', async () => {
    sameTotals(await sameRows('stock_profit_statement', RANGE, X.PROFIT_OCT_NOV), X.PROFIT_OCT_NOV_TOTALS);
    sameTotals(await sameRows('stock_profit_statement', { date_from: '2026-11-01', date_to: '2026-11-30' }, X.PROFIT_NOV), X.PROFIT_NOV_TOTALS);
  });

  it('sales_tax_report: invoices, credit notes (negative) and debit notes of the month they were issued', async () => {
    const withIds = (rows: Row[]) => rows.map(({ customer, ...r }) => ({ ...r, tax_id: TAX_IDS[customer as 'C1'], branch_code: customer === 'C1' ? '00000' : '00001' }));
    sameTotals(await sameRows('sales_tax_report', { month: '2026-11' }, withIds(X.SALES_TAX_NOV)), X.SALES_TAX_NOV_TOTALS);
    await sameRows('sales_tax_report', { month: '2026-10' }, withIds(X.SALES_TAX_OCT));
  });

  it('purchase_tax_report: posted purchase invoices of the month they are recorded in, with the supplier\'s invoice number and date, tax id and branch', async () => {
    const withIds = (rows: Row[]) => rows.map(({ supplier, ...r }) => ({ ...r, tax_id: TAX_IDS[supplier as 'S1'], branch_code: supplier === 'S1' ? '00000' : '00002' }));
    sameTotals(await sameRows('purchase_tax_report', { month: '2026-11' }, withIds(X.PURCHASE_TAX_NOV)), X.PURCHASE_TAX_NOV_TOTALS);
    await sameRows('purchase_tax_report', { month: '2026-10' }, withIds(X.PURCHASE_TAX_OCT));
  });

  it('wht_summary: issued certificates of the month, one row per PND form', async () => {
    sameTotals(await sameRows('wht_summary', { month: '2026-11' }, X.WHT_NOV), X.WHT_NOV_TOTALS);
  });

  it('wht_summary printed: the tax month in the Buddhist era and the form by its name (the PDF said 2026-11 and pnd53)', async () => {
    const res = await f.c.call('GET', '/api/report/wht_summary/pdf?month=2026-11&lang=th', f.c.admin);
    expect(res.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'wht-pdf-'));
    writeFileSync(join(dir, 'r.pdf'), res.rawPayload);
    const text = execFileSync('pdftotext', ['-layout', join(dir, 'r.pdf'), '-'], { encoding: 'utf8' }).normalize('NFKC').replace(/\s+/g, '');
    rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('พฤศจิกายน2569');
    expect(text).toContain('53');
    expect(text).not.toContain('pnd53');
    expect(text).not.toContain('2026-11');
  });

  it('wht_attachment lists the certificates of one form; its RD Prep text is the file the Revenue Department\'s program imports', async () => {
    await sameRows('wht_attachment', { month: '2026-11', pnd_form: 'pnd53' },
      X.WHT_ATTACHMENT_PND53_NOV.map(({ payee, ...r }) => ({ ...r, tax_id: TAX_IDS[payee as 'S1'] })));
    const text = async (form: string, h = f.c.admin) => f.c.call('GET', `/api/report/wht_attachment/text/rd_prep?month=2026-11&pnd_form=${form}`, h);
    const pnd53 = await text('pnd53');
    expect(pnd53.statusCode, pnd53.body).toBe(200);
    expect(pnd53.headers['content-type']).toMatch(/^text\/plain/);
    expect(pnd53.headers['content-disposition']).toContain('PND53_2026-11.txt');
    expect(pnd53.body).toBe(X.RD_PREP_PND53_NOV(TAX_IDS));
    expect((await text('pnd3')).body).toBe(X.RD_PREP_PND3_NOV(TAX_IDS));
    // the export flag of the report's menu key (wht_summary) guards it; a bad form is a 400
    const viewer = await f.c.staff('wht_viewer', { wht_summary: { view: true } });
    expect((await text('pnd53', viewer.headers)).statusCode).toBe(403);
    expect((await f.c.call('GET', '/api/report/wht_summary?month=2026-11', viewer.headers)).statusCode).toBe(200);
    expect((await text('pnd1')).statusCode).toBe(400);
    // only the formats the file declares
    expect((await f.c.call('GET', '/api/report/wht_summary/text/rd_prep?month=2026-11', f.c.admin)).statusCode).toBe(404);
  });

  it('sale_order_report and receipt_summary: posted documents of the range with their own totals', async () => {
    sameTotals(await sameRows('sale_order_report', RANGE, X.SALE_ORDERS), X.SALE_ORDERS_TOTALS);
    sameTotals(await sameRows('receipt_summary', RANGE, X.RECEIPTS), X.RECEIPTS_TOTALS);
    await sameRows('sale_order_report', { date_from: '2026-11-01', date_to: '2026-11-30' }, X.SALE_ORDERS.filter((r) => r.doc_no === 'SO3'));
  });

  const exceptions: [string, Row[]][] = [
    ['do_not_so', X.DO_NOT_SO], ['gr_not_po', X.GR_NOT_PO], ['so_line_duplicate', X.SO_LINE_DUPLICATE], ['do_line_duplicate', X.DO_LINE_DUPLICATE],
    ['po_line_duplicate', X.PO_LINE_DUPLICATE], ['gr_line_duplicate', X.GR_LINE_DUPLICATE], ['title_do_unlike_so', X.TITLE_DO_UNLIKE_SO],
    ['do_line_unlike_so_line', X.DO_LINE_UNLIKE_SO_LINE], ['gr_line_unlike_po_line', X.GR_LINE_UNLIKE_PO_LINE],
  ];
  for (const [name, rows] of exceptions) {
    it(`${name}: the offending posted documents, each with what a link needs (entity and id)`, async () => {
      const got = await sameRows(name, {}, rows);
      for (const [i, r] of got.rows.entries()) {
        const d = Object.values(f.doc).find((x) => x.doc_no === r.doc_no)!;
        expect(r, `${name} row ${i}`).toMatchObject({ doc_entity: d.entity, doc_id: d.id });
      }
    });
  }

  it('stock_list_report: every product with its stock; by inventory, only with stock, by class', async () => {
    await sameRows('stock_list_report', {}, X.STOCK_LIST);
    await sameRows('stock_list_report', { selectedInventory: f.id.WH2!, isFilterStock: 'true' }, X.STOCK_LIST_WH2_WITH_STOCK);
    await sameRows('stock_list_report', { productClass: 'product' }, X.STOCK_LIST.filter((r) => r.product_class === 'product'));
  });

  it('stock_aging_report: each lot on hand in its age bucket', async () => {
    sameTotals(await sameRows('stock_aging_report', { age_date: '2026-11-30' }, X.AGING_NOV_30), X.AGING_NOV_30_TOTALS);
  });

  it('change_location_report, return_report (and its classes), supplier summaries and do_line_report', async () => {
    await sameRows('change_location_report', RANGE, X.CHANGE_LOCATION);
    await sameRows('return_report', RANGE, X.RETURNS);
    await sameRows('return_report_class_a', RANGE, X.RETURNS);
    await sameRows('return_report_class_b', RANGE, []);
    await sameRows('daily_supplier_summary', RANGE, X.DAILY_SUPPLIER);
    sameTotals(await sameRows('monthly_supplier_summary', { selectYear: 2026 }, X.MONTHLY_SUPPLIER), X.MONTHLY_SUPPLIER_TOTALS);
    await sameRows('monthly_supplier_summary', { selectYear: 2025 }, []);
    await sameRows('do_line_report', RANGE, X.DO_LINES);
  });

  for (const name of X.EMPTY_REPORTS) {
    it(`${name} answers (no rows in this business)`, async () => {
      await sameRows(name, {}, []);
    });
  }

  it('waste_product_summary_report and report_divide_product: approved production reports only', async () => {
    await sameRows('waste_product_summary_report', RANGE, X.WASTE);
    await sameRows('report_divide_product', RANGE, X.DIVIDE);
    await sameRows('report_divide_product', { ...RANGE, selectMachinary: f.id.M1! }, X.DIVIDE);
    await sameRows('report_divide_product', { date_from: '2026-11-11', date_to: '2026-11-30' }, []);
  });

  it('report_asset_borrow and report_modify_asset: the asset history of the day', async () => {
    const today = { date_from: businessTodayNow(), date_to: businessTodayNow() };
    await sameRows('report_asset_borrow', today, X.ASSET_BORROW);
    await sameRows('report_modify_asset', today, X.ASSET_MODIFY);
    await sameRows('report_asset_borrow', { date_from: '2026-10-01', date_to: '2026-10-31' }, []);
  });

  it('a user limited to WH2 gets only WH2\'s rows and totals, on screen and in the export', async () => {
    const flags = { view: true, export: true };
    const u = await f.c.staff('wh2_only', { stock_movement: flags, stock_profit_statement: flags, do_line_report: flags }, { inventory: [f.id.WH2!] });
    const get = async (name: string, query: Record<string, string>) => (await f.c.call('GET', `/api/report/${name}?${new URLSearchParams(query).toString()}`, u.headers)).json().data;
    const nov = await get('stock_movement', { date_from: '2026-11-01', date_to: '2026-11-30' });
    expect(shape(nov.rows, ['doc_no', 'inventory_code', 'direction', 'qty'])).toEqual(numbered([{ doc_no: 'T1', inventory_code: 'WH2', direction: 'in', qty: 20 }]));
    expect(shape([nov.totals], ['qty_in', 'qty_out'])).toEqual([{ qty_in: 20, qty_out: 0 }]);
    // the profit of WH2's deliveries only (DO2: PR1)
    const profit = await get('stock_profit_statement', RANGE as Record<string, string>);
    expect(shape(profit.rows, ['product_code', 'sales_amount', 'cost_amount'])).toEqual([{ product_code: 'PR1', sales_amount: 162, cost_amount: 32 }]);
    expect(shape([profit.totals], ['sales_amount', 'cost_amount', 'profit_amount'])).toEqual([{ sales_amount: 162, cost_amount: 32, profit_amount: 130 }]);
    const csv = await f.c.call('GET', `/api/report/do_line_report/export?format=csv&${new URLSearchParams(RANGE).toString()}`, u.headers);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(f.doc.DO2!.doc_no);
    for (const other of ['DO1', 'DO3', 'DO4', 'DO5']) expect(csv.body).not.toContain(f.doc[other]!.doc_no);
  });

  it('an exception report\'s date range keeps only documents dated in it', async () => {
    await sameRows('gr_line_duplicate', { date_from: '2026-10-13', date_to: '2026-10-31' }, X.GR_LINE_DUPLICATE.filter((r) => r.doc_no === 'GR3'));
  });
});
