/**
 * What every report must answer for the fixture business (tests/reports/report-fixture.ts), worked
 * out BY HAND from the rules of issue 32 ("Rules for every report", the report tables, the
 * moving-average rule), never by running the code under test. Documents are named as in the
 * fixture (SO1, DO3 …); the test swaps each name for the number the server gave it.
 *
 * The story (business dates, Asia/Bangkok; all amounts in baht):
 *
 *  10-05 PO1  S1: A1 100 × 10.00, B1 50 × 20.00 (approved)
 *  10-06 PO2  S1: PR1 10 × 5.00, PR1 5 × 6.00 (approved; PR1 on two lines)
 *  10-10 GR1  from PO1 into WH1: A1 100 lot L1 expiring 2026-11-30 (1,000.00), B1 50 at 21.00 where PO1 said 20.00 (1,050.00)
 *  10-12 GR2  standalone, S2, into WH1: A1 30 lot L2 expiring 2027-03-31 × 13.00 (390.00), AS1 2 × 1,000.00,
 *             PR1 10 × 7.00 and PR1 5 × 7.00 (two lines, one balance row: 15 worth 105.00)
 *  10-15 GR3  from PO2 into WH2: PR1 10 × 5.00 + 5 × 6.00 (two lines, one balance row: 15 worth 80.00)
 *  10-31 ADJ-1 PR2 +2 × 12.50 in WH1 at 16:30Z = 23:30 on 31 Oct in Bangkok  → business date 2026-10-31
 *  11-01 ADJ-2 PR2 +8 × 12.50 in WH1 at 17:30Z on 31 Oct = 00:30 on 1 Nov      → business date 2026-11-01
 *  10-20 SO1  C1, VAT excluded: A1 40 × 25.00, B1 10 × 50.00 → 1,500.00 + 105.00 = 1,605.00
 *  10-21 SO2  C2, VAT excluded, 10 % off: PR1 4 × 30.00, PR1 2 × 30.00 → 180.00 − 18.00 = 162.00 + 11.34 = 173.34
 *             (each line's pre-VAT amount: 108.00 and 54.00, i.e. 27.00 a unit)
 *  11-02 SO3  C1, VAT included: B1 5 × 107.00 → 500.00 + 35.00 = 535.00 (approved, nothing delivered)
 *  11-03 SO4  draft (B1 twice: a duplicate that must NOT show), SO5 approved then cancelled: neither counts
 *  10-25 DO1  from SO1, WH1: A1 30 (FEFO: lot L1), B1 10
 *  10-31 DO2  from SO2, WH2: PR1 4 and PR1 2 (the order's two lines)
 *  11-05 DO3  standalone, C2, WH1: B1 5, PR2 3
 *  11-06 T1   WH1 → WH2: A1 20 (FEFO: lot L1)
 *  11-20 DO4  from SO1, WH1: A1 10 (lot L1)
 *  11-01 DO5  from SO3, WH1: B1 1, dated the day before its order (posted after DO3)
 *  10-26 TI1  SO1 whole: 1,500.00 + 105.00;  11-03 TI2 SO2 whole: 162.00 + 11.34;  11-04 TI3 typed, C1: 2 × 100.00 → 200.00 + 14.00;
 *  11-10 TI4  issued then cancelled (never counts)
 *  11-08 CN1  on TI1's A1 line, 107.00 VAT included → 100.00 + 7.00 (reported negative)
 *  11-09 DN1  on TI2's first line, 4 × 5.00 → 20.00 + 1.40
 *  10-28 R1   SO1 in full by transfer: 1,500.00 + 105.00 = 1,605.00;  11-05 R2 typed, cash, 214.00 VAT included → 200.00 + 14.00;
 *  11-06 R3   a draft
 *  W1 10-30 pnd3 500.00 × 3 % = 15.00; W2 11-10 pnd53 1,000.00 × 3 % = 30.00; W3 11-11 pnd53 333.50 × 1 % = 3.335 → 3.34;
 *  W4 11-12 pnd3 333.50 × 3 % = 10.005 → 10.01; W5 11-13 a draft
 *  PI1 (recorded 11-02) all of GR1, supplier's invoice S1-IV-0001 of 10-31: 2,050.00 + 143.50 (October's tax month)
 *  PI2 (11-03) typed, S2, 1,070.00 VAT included, S2-TX-7788 of 11-01: 1,000.00 + 70.00
 *  PI3 (11-15) GR2's asset line 2 × 1,000.00, S2-TX-7790 of 11-14: 2,000.00 + 140.00
 *  PI4 a draft (S1-IV-0009 of 11-05), PI5 posted then cancelled (S1-IV-0010 of 11-06): neither counts
 *
 * Moving-average values, key by key (value taken by an out = round_half_up(value × q / qty), in posting order):
 *  A1 WH1 L1: in 100 / 1,000.00 → DO1 −30 takes 300.00 (70 / 700.00) → T1 −20 takes 200.00 (50 / 500.00)
 *             → DO4 −10 takes 100.00 → 40 / 400.00
 *  A1 WH1 L2: 30 / 390.00 (untouched);  A1 WH2 L1: T1 in 20 / 200.00 (what the out-leg took)
 *  B1 WH1:    50 / 1,050.00 → DO1 −10 takes 1,050 × 10 / 50 = 210.00 (40 / 840.00) → DO3 −5 takes 105.00 (35 / 735.00)
 *             → DO5 −1 takes 735 × 1 / 35 = 21.00 → 34 / 714.00
 *  AS1 WH1:   2 / 2,000.00;  PR1 WH1: 15 / 105.00
 *  PR1 WH2:   15 / 80.00 → DO2 −4 takes (in satang) 8,000 × 4 / 15 = 2,133.33 → 2,133 (21.33), leaving 11 / 58.67;
 *             then −2 takes 5,867 × 2 / 11 = 1,066.73 → 1,067 satang (10.67), leaving 9 / 48.00.  DO2's cost: 32.00
 *  PR2 WH1:   2 / 25.00 + 8 / 100.00 = 10 / 125.00 → DO3 −3 takes 12,500 × 3 / 10 = 3,750 satang (37.50) → 7 / 87.50
 */

type Row = Record<string, string | number | null>;

/** stock_balance_all: on hand now per product × inventory, valued (the key values above summed). */
export const STOCK_BALANCE_ALL: Row[] = [
  { product_code: 'A1', inventory_code: 'WH1', qty: 70, stock_value: 790 }, // L1 40 / 400.00 + L2 30 / 390.00
  { product_code: 'A1', inventory_code: 'WH2', qty: 20, stock_value: 200 },
  { product_code: 'AS1', inventory_code: 'WH1', qty: 2, stock_value: 2000 },
  { product_code: 'B1', inventory_code: 'WH1', qty: 34, stock_value: 714 },
  { product_code: 'PR1', inventory_code: 'WH1', qty: 15, stock_value: 105 },
  { product_code: 'PR1', inventory_code: 'WH2', qty: 9, stock_value: 48 },
  { product_code: 'PR2', inventory_code: 'WH1', qty: 7, stock_value: 87.5 },
];
/** Totals: qty 70 + 20 + 2 + 34 + 15 + 9 + 7 = 157; value 790 + 200 + 2,000 + 714 + 105 + 48 + 87.50 = 3,944.50. */
export const STOCK_BALANCE_ALL_TOTALS = { qty: 157, stock_value: 3944.5 };

/** The class reports: the same rows, only the products of that class (A1 class_a, B1 class_b, AS1 asset, PR1/PR2 product). */
export const STOCK_BALANCE_BY_CLASS: Record<string, Row[]> = {
  stock_balance_class_a: [{ product_code: 'A1', inventory_code: 'WH1', qty: 70 }, { product_code: 'A1', inventory_code: 'WH2', qty: 20 }],
  stock_balance_class_b: [{ product_code: 'B1', inventory_code: 'WH1', qty: 34 }],
  stock_balance_assets: [{ product_code: 'AS1', inventory_code: 'WH1', qty: 2 }],
  stock_balance_product: [
    { product_code: 'PR1', inventory_code: 'WH1', qty: 15 }, { product_code: 'PR1', inventory_code: 'WH2', qty: 9 },
    { product_code: 'PR2', inventory_code: 'WH1', qty: 7 },
  ],
};

/** inventory_stock_balance for WH2 (selectedInventory = WH2's id, also /inventory_stock_balance/{id}). */
export const INVENTORY_STOCK_BALANCE_WH2: Row[] = [
  { product_code: 'A1', inventory_code: 'WH2', qty: 20 },
  { product_code: 'PR1', inventory_code: 'WH2', qty: 9 },
];

/**
 * backdate_stock_balance: Σ in − out with business date ≤ as_of.
 * as_of 2026-10-31: A1 WH1 100 + 30 − 30 (DO1) = 100; B1 WH1 50 − 10 = 40; AS1 2; PR1 WH1 15;
 * PR1 WH2 15 − 6 (DO2 is dated 10-31) = 9; PR2 WH1 2 (ADJ-1 at 16:30Z is still 31 Oct; ADJ-2 at 17:30Z is 1 Nov).
 * as_of 2026-11-01: the same, PR2 WH1 2 + 8 = 10, B1 WH1 40 − 1 (DO5, dated 1 Nov) = 39.
 */
export const BACKDATE_2026_10_31: Row[] = [
  { product_code: 'A1', inventory_code: 'WH1', qty: 100 },
  { product_code: 'AS1', inventory_code: 'WH1', qty: 2 },
  { product_code: 'B1', inventory_code: 'WH1', qty: 40 },
  { product_code: 'PR1', inventory_code: 'WH1', qty: 15 },
  { product_code: 'PR1', inventory_code: 'WH2', qty: 9 },
  { product_code: 'PR2', inventory_code: 'WH1', qty: 2 },
];
export const BACKDATE_2026_11_01: Row[] = BACKDATE_2026_10_31.map((r) => (r.product_code === 'PR2' ? { ...r, qty: 10 } : r.product_code === 'B1' ? { ...r, qty: 39 } : r));
/** as_of 2026-10-09: before the first receipt, nothing. */
export const BACKDATE_2026_10_09: Row[] = [];

/**
 * expiration_report: lots on hand now whose expiry ≤ the month's last day.
 * 2026-11 (last day 11-30): L1 in WH1 (40) and WH2 (20); L2 (2027-03-31) not yet.  2027-03: L2 too.  2026-10: none.
 */
export const EXPIRATION_2026_11: Row[] = [
  { product_code: 'A1', inventory_code: 'WH1', lot_no: 'L1', expiry_date: '2026-11-30', qty: 40 },
  { product_code: 'A1', inventory_code: 'WH2', lot_no: 'L1', expiry_date: '2026-11-30', qty: 20 },
];
export const EXPIRATION_2027_03: Row[] = [
  ...EXPIRATION_2026_11,
  { product_code: 'A1', inventory_code: 'WH1', lot_no: 'L2', expiry_date: '2027-03-31', qty: 30 },
];
export const EXPIRATION_2026_10: Row[] = [];

/**
 * stock_movement 2026-11-01 … 2026-11-30: the ledger rows whose business date is in November:
 * ADJ-2 (17:30Z on 31 Oct = 1 Nov), DO5's out (1 Nov, written later), DO3's two outs, T1's out and in, DO4's out.
 * Not ADJ-1 (31 Oct). In: 8 + 20 = 28; out: 1 + 5 + 3 + 20 + 10 = 39.
 */
export const STOCK_MOVEMENT_NOV: Row[] = [
  { movement_date: '2026-11-01', doc_no: 'ADJ-2', product_code: 'PR2', inventory_code: 'WH1', direction: 'in', qty: 8, lot_no: null, movement_type: 'adjustment' },
  { movement_date: '2026-11-01', doc_no: 'DO5', product_code: 'B1', inventory_code: 'WH1', direction: 'out', qty: 1, lot_no: null, movement_type: 'delivery' },
  { movement_date: '2026-11-05', doc_no: 'DO3', product_code: 'B1', inventory_code: 'WH1', direction: 'out', qty: 5, lot_no: null, movement_type: 'delivery' },
  { movement_date: '2026-11-05', doc_no: 'DO3', product_code: 'PR2', inventory_code: 'WH1', direction: 'out', qty: 3, lot_no: null, movement_type: 'delivery' },
  { movement_date: '2026-11-06', doc_no: 'T1', product_code: 'A1', inventory_code: 'WH1', direction: 'out', qty: 20, lot_no: 'L1', movement_type: 'transfer' },
  { movement_date: '2026-11-06', doc_no: 'T1', product_code: 'A1', inventory_code: 'WH2', direction: 'in', qty: 20, lot_no: 'L1', movement_type: 'transfer' },
  { movement_date: '2026-11-20', doc_no: 'DO4', product_code: 'A1', inventory_code: 'WH1', direction: 'out', qty: 10, lot_no: 'L1', movement_type: 'delivery' },
];
/** stock_movement on 2026-10-31 alone: ADJ-1 (16:30Z) and DO2's two outs; ADJ-2 (17:30Z) is the next day. */
export const STOCK_MOVEMENT_OCT_31: Row[] = [
  { movement_date: '2026-10-31', doc_no: 'ADJ-1', product_code: 'PR2', inventory_code: 'WH1', direction: 'in', qty: 2, lot_no: null, movement_type: 'adjustment' },
  { movement_date: '2026-10-31', doc_no: 'DO2', product_code: 'PR1', inventory_code: 'WH2', direction: 'out', qty: 4, lot_no: null, movement_type: 'delivery' },
  { movement_date: '2026-10-31', doc_no: 'DO2', product_code: 'PR1', inventory_code: 'WH2', direction: 'out', qty: 2, lot_no: null, movement_type: 'delivery' },
];

/**
 * stock_profit_statement 2026-10-01 … 2026-11-30 (every delivery):
 *  A1:  DO1 30 + DO4 10 = 40; cost 300.00 + 100.00 = 400.00; sales 40 × 25.00 = 1,000.00; profit 600.00
 *  B1:  DO1 10 (cost 210.00, sales 10 × 50.00 = 500.00) + DO3 5 (cost 105.00, no order: sales 0)
 *       + DO5 1 (cost 21.00; SO3 is VAT-included: line 535.00 × 500.00 / 535.00 = 500.00 for 5, 100.00 a unit)
 *       → 16, sales 600.00, cost 336.00, profit 264.00
 *  PR1: DO2 4 + 2 = 6; cost 21.33 + 10.67 = 32.00; sales 4 × 27.00 + 2 × 27.00 = 162.00; profit 130.00
 *  PR2: DO3 3; cost 37.50; sales 0; profit −37.50
 *  totals: sales 1,762.00; cost 400 + 336 + 32 + 37.50 = 805.50; profit 956.50
 */
export const PROFIT_OCT_NOV: Row[] = [
  { product_code: 'A1', qty: 40, sales_amount: 1000, cost_amount: 400, profit_amount: 600 },
  { product_code: 'B1', qty: 16, sales_amount: 600, cost_amount: 336, profit_amount: 264 },
  { product_code: 'PR1', qty: 6, sales_amount: 162, cost_amount: 32, profit_amount: 130 },
  { product_code: 'PR2', qty: 3, sales_amount: 0, cost_amount: 37.5, profit_amount: -37.5 },
];
export const PROFIT_OCT_NOV_TOTALS = { sales_amount: 1762, cost_amount: 805.5, profit_amount: 956.5 };
/** 2026-11-01 … 2026-11-30: DO3, DO4 and DO5 (A1 10: 250.00 − 100.00; B1 5 + 1: 100.00 − 126.00; PR2 3: 0 − 37.50). */
export const PROFIT_NOV: Row[] = [
  { product_code: 'A1', qty: 10, sales_amount: 250, cost_amount: 100, profit_amount: 150 },
  { product_code: 'B1', qty: 6, sales_amount: 100, cost_amount: 126, profit_amount: -26 },
  { product_code: 'PR2', qty: 3, sales_amount: 0, cost_amount: 37.5, profit_amount: -37.5 },
];
export const PROFIT_NOV_TOTALS = { sales_amount: 350, cost_amount: 263.5, profit_amount: 86.5 };

/**
 * sales_tax_report 2026-11: TI2 (C2, branch 00001), TI3 (C1), R2 (a receipt that is a tax invoice, C2), CN1 (−100.00 /
 * −7.00, the note's customer C1), DN1 (+20.00 / +1.40, C2); not TI1 (October), not TI4 (cancelled), not R1 (SO1 has
 * TI1). Totals 162 + 200 + 200 − 100 + 20 = 482.00; VAT 11.34 + 14.00 + 14.00 − 7.00 + 1.40 = 33.74. Order: by date
 * (11-03, 11-04, 11-05, 11-08, 11-09).
 * tax_id / branch_code are the buyer's (TAX_IDS of the fixture) and checked by the test.
 */
export const SALES_TAX_NOV: Row[] = [
  { doc_no: 'TI2', doc_date: '2026-11-03', customer: 'C2', amount_before_vat: 162, vat_amount: 11.34 },
  { doc_no: 'TI3', doc_date: '2026-11-04', customer: 'C1', amount_before_vat: 200, vat_amount: 14 },
  // R2, typed by hand for a sale with no tax invoice, serves as its tax invoice (issue 44 §2); R1 does not: SO1 has TI1
  { doc_no: 'R2', doc_date: '2026-11-05', customer: 'C2', amount_before_vat: 200, vat_amount: 14 },
  { doc_no: 'CN1', doc_date: '2026-11-08', customer: 'C1', amount_before_vat: -100, vat_amount: -7 },
  { doc_no: 'DN1', doc_date: '2026-11-09', customer: 'C2', amount_before_vat: 20, vat_amount: 1.4 },
];
export const SALES_TAX_NOV_TOTALS = { amount_before_vat: 482, vat_amount: 33.74 };
export const SALES_TAX_OCT: Row[] = [{ doc_no: 'TI1', doc_date: '2026-10-26', customer: 'C1', amount_before_vat: 1500, vat_amount: 105 }];

/**
 * purchase_tax_report by the month the invoice is recorded (doc_date, where its input VAT is claimed and posted), with
 * the supplier's invoice number and date: 2026-11 → PI1 (recorded 11-02 on a supplier's invoice of 10-31), PI2, PI3;
 * 2026-10 → none.
 */
export const PURCHASE_TAX_NOV: Row[] = [
  { doc_no: 'PI1', doc_date: '2026-11-02', supplier_invoice_no: 'S1-IV-0001', supplier_invoice_date: '2026-10-31', supplier: 'S1', amount_before_vat: 2050, vat_amount: 143.5 },
  { doc_no: 'PI2', doc_date: '2026-11-03', supplier_invoice_no: 'S2-TX-7788', supplier_invoice_date: '2026-11-01', supplier: 'S2', amount_before_vat: 1000, vat_amount: 70 },
  { doc_no: 'PI3', doc_date: '2026-11-15', supplier_invoice_no: 'S2-TX-7790', supplier_invoice_date: '2026-11-14', supplier: 'S2', amount_before_vat: 2000, vat_amount: 140 },
];
export const PURCHASE_TAX_NOV_TOTALS = { amount_before_vat: 5050, vat_amount: 353.5 };
export const PURCHASE_TAX_OCT: Row[] = [];

/** wht_summary 2026-11: pnd3 W4 (333.50 / 10.01); pnd53 W2 + W3 (1,333.50 / 33.34). Not W1 (October), not W5 (draft). */
export const WHT_NOV: Row[] = [
  { pnd_form: 'pnd3', doc_count: 1, amount_paid: 333.5, tax_amount: 10.01 },
  { pnd_form: 'pnd53', doc_count: 2, amount_paid: 1333.5, tax_amount: 33.34 },
];
export const WHT_NOV_TOTALS = { doc_count: 3, amount_paid: 1667, tax_amount: 43.35 };

/** sale_order_report 2026-10-01 … 2026-11-30: SO1, SO2, SO3 (SO4 draft, SO5 cancelled). Totals 2,162.00 / 151.34 / 2,313.34. */
export const SALE_ORDERS: Row[] = [
  { doc_no: 'SO1', doc_date: '2026-10-20', customer_code: 'C1', amount_before_vat: 1500, vat_amount: 105, total_amount: 1605 },
  { doc_no: 'SO2', doc_date: '2026-10-21', customer_code: 'C2', amount_before_vat: 162, vat_amount: 11.34, total_amount: 173.34 },
  { doc_no: 'SO3', doc_date: '2026-11-02', customer_code: 'C1', amount_before_vat: 500, vat_amount: 35, total_amount: 535 },
];
export const SALE_ORDERS_TOTALS = { amount_before_vat: 2162, vat_amount: 151.34, total_amount: 2313.34 };

/** receipt_summary 2026-10-01 … 2026-11-30: R1 and R2 (R3 draft). Totals 1,700.00 / 119.00 / 1,819.00. */
export const RECEIPTS: Row[] = [
  { doc_no: 'R1', doc_date: '2026-10-28', customer_code: 'C1', payment_method: 'transfer', amount_before_vat: 1500, vat_amount: 105, total_amount: 1605 },
  { doc_no: 'R2', doc_date: '2026-11-05', customer_code: 'C2', payment_method: 'cash', amount_before_vat: 200, vat_amount: 14, total_amount: 214 },
];
export const RECEIPTS_TOTALS = { amount_before_vat: 1700, vat_amount: 119, total_amount: 1819 };

/** Exceptions (no date range: every posted document). */
export const DO_NOT_SO: Row[] = [{ doc_no: 'DO3', doc_date: '2026-11-05', customer_code: 'C2' }];
export const GR_NOT_PO: Row[] = [{ doc_no: 'GR2', doc_date: '2026-10-12', supplier_code: 'S2' }];
/** SO4 (a draft) also has B1 twice and must not show. */
export const SO_LINE_DUPLICATE: Row[] = [{ doc_no: 'SO2', product_code: 'PR1', line_count: 2 }];
export const DO_LINE_DUPLICATE: Row[] = [{ doc_no: 'DO2', product_code: 'PR1', line_count: 2 }];
export const PO_LINE_DUPLICATE: Row[] = [{ doc_no: 'PO2', product_code: 'PR1', line_count: 2 }];
export const GR_LINE_DUPLICATE: Row[] = [{ doc_no: 'GR2', product_code: 'PR1', line_count: 2 }, { doc_no: 'GR3', product_code: 'PR1', line_count: 2 }];
/**
 * title_do_unlike_so: DO5 is dated 11-01, before its order SO3 (11-02). (A delivery for another customer or company
 * than its order's cannot be made: the engine refuses it at create-from.)
 */
export const TITLE_DO_UNLIKE_SO: Row[] = [{ doc_no: 'DO5', doc_date: '2026-11-01', so_doc_no: 'SO3', so_doc_date: '2026-11-02', customer_code: 'C1', so_customer_code: 'C1', differences: 'date' }];
/** do_line_unlike_so_line: DO1's A1 line delivered 30 of SO1's 40; DO5's B1 line 1 of SO3's 5; DO4's A1 line 10 of 40. */
export const DO_LINE_UNLIKE_SO_LINE: Row[] = [
  { doc_no: 'DO1', product_code: 'A1', qty: 30, source_qty: 40 },
  { doc_no: 'DO5', product_code: 'B1', qty: 1, source_qty: 5 },
  { doc_no: 'DO4', product_code: 'A1', qty: 10, source_qty: 40 },
];
/** gr_line_unlike_po_line: GR1's B1 line, 21.00 where PO1 said 20.00 (GR3 took PO2 whole at its prices). */
export const GR_LINE_UNLIKE_PO_LINE: Row[] = [{ doc_no: 'GR1', product_code: 'B1', qty: 50, source_qty: 50, price: 21, source_price: 20 }];

// ---- the other reports of r-content (defined in docs/reports.md; same story, same hand arithmetic) ----

/** stock_list_report, no parameters: every product, on hand in all inventories (the balance rows above summed). */
export const STOCK_LIST: Row[] = [
  { product_code: 'A1', product_class: 'class_a', qty: 90, stock_value: 990 }, // 70 / 790.00 in WH1 + 20 / 200.00 in WH2
  { product_code: 'AS1', product_class: 'asset', qty: 2, stock_value: 2000 },
  { product_code: 'B1', product_class: 'class_b', qty: 34, stock_value: 714 },
  { product_code: 'PR1', product_class: 'product', qty: 24, stock_value: 153 }, // 15 / 105.00 + 9 / 48.00
  { product_code: 'PR2', product_class: 'product', qty: 7, stock_value: 87.5 },
];
/** selectedInventory = WH2 and isFilterStock: only what WH2 holds (A1 20 / 200.00, PR1 9 / 48.00). */
export const STOCK_LIST_WH2_WITH_STOCK: Row[] = [
  { product_code: 'A1', product_class: 'class_a', qty: 20, stock_value: 200 },
  { product_code: 'PR1', product_class: 'product', qty: 9, stock_value: 48 },
];

/**
 * stock_aging_report at age_date 2026-11-30: each balance key on hand, aged from its first receipt
 * (the business date of its first `in`): 10-10 → 51 days (21 left in October + 30 in November),
 * 10-12 → 49, 10-15 → 46, 10-31 → 30, 11-06 → 24. Buckets 0–30 / 31–60 / …
 */
export const AGING_NOV_30: Row[] = [
  { product_code: 'A1', inventory_code: 'WH1', lot_no: 'L1', first_in_date: '2026-10-10', age_days: 51, qty: 40, qty_0_30: 0, qty_31_60: 40 },
  { product_code: 'A1', inventory_code: 'WH1', lot_no: 'L2', first_in_date: '2026-10-12', age_days: 49, qty: 30, qty_0_30: 0, qty_31_60: 30 },
  { product_code: 'A1', inventory_code: 'WH2', lot_no: 'L1', first_in_date: '2026-11-06', age_days: 24, qty: 20, qty_0_30: 20, qty_31_60: 0 },
  { product_code: 'AS1', inventory_code: 'WH1', lot_no: null, first_in_date: '2026-10-12', age_days: 49, qty: 2, qty_0_30: 0, qty_31_60: 2 },
  { product_code: 'B1', inventory_code: 'WH1', lot_no: null, first_in_date: '2026-10-10', age_days: 51, qty: 34, qty_0_30: 0, qty_31_60: 34 },
  { product_code: 'PR1', inventory_code: 'WH1', lot_no: null, first_in_date: '2026-10-12', age_days: 49, qty: 15, qty_0_30: 0, qty_31_60: 15 },
  { product_code: 'PR1', inventory_code: 'WH2', lot_no: null, first_in_date: '2026-10-15', age_days: 46, qty: 9, qty_0_30: 0, qty_31_60: 9 },
  { product_code: 'PR2', inventory_code: 'WH1', lot_no: null, first_in_date: '2026-10-31', age_days: 30, qty: 7, qty_0_30: 7, qty_31_60: 0 },
];
/** Totals: 157 on hand; 0–30: 20 + 7 = 27; 31–60: 40 + 30 + 2 + 34 + 15 + 9 = 130; older: 0. */
export const AGING_NOV_30_TOTALS = { qty: 157, qty_0_30: 27, qty_31_60: 130, qty_61_90: 0, qty_91_180: 0, qty_over_180: 0 };

/** change_location_report 10-01 … 11-30: T1 (the line names no lot: FEFO chose it at posting). */
export const CHANGE_LOCATION: Row[] = [
  { doc_no: 'T1', doc_date: '2026-11-06', product_code: 'A1', from_inventory_code: 'WH1', to_inventory_code: 'WH2', qty: 20 },
];

/** return_report 10-01 … 11-30: CN1, 107.00 credited on TI1's A1 line (class A); none of class B. */
export const RETURNS: Row[] = [{ doc_no: 'CN1', doc_date: '2026-11-08', customer_code: 'C1', invoice_no: 'TI1', product_code: 'A1', amount: 107 }];

/**
 * daily_supplier_summary 10-01 … 11-30, value = Σ qty × unit cost of the receipts' lines:
 *  10-10 S1 GR1: 100 × 10 + 50 × 21 = 2,050.00 (qty 150); 10-12 S2 GR2: 390 + 2,000 + 70 + 35 = 2,495.00 (qty 47);
 *  10-15 S1 GR3: 50 + 30 = 80.00 (qty 15)
 */
export const DAILY_SUPPLIER: Row[] = [
  { period: '2026-10-10', supplier_code: 'S1', doc_count: 1, qty: 150, amount: 2050 },
  { period: '2026-10-12', supplier_code: 'S2', doc_count: 1, qty: 47, amount: 2495 },
  { period: '2026-10-15', supplier_code: 'S1', doc_count: 1, qty: 15, amount: 80 },
];
/** monthly_supplier_summary 2026: October, S1 = GR1 + GR3 (2 receipts, 165, 2,130.00), S2 = GR2. Totals 3, 212, 4,625.00. */
export const MONTHLY_SUPPLIER: Row[] = [
  { period: '2026-10', supplier_code: 'S1', doc_count: 2, qty: 165, amount: 2130 },
  { period: '2026-10', supplier_code: 'S2', doc_count: 1, qty: 47, amount: 2495 },
];
export const MONTHLY_SUPPLIER_TOTALS = { doc_count: 3, qty: 212, amount: 4625 };

/** do_line_report 10-01 … 11-30: every line of DO1–DO5 by date, with its order (none for DO3). Total qty 65. */
export const DO_LINES: Row[] = [
  { doc_no: 'DO1', line_no: 1, customer_code: 'C1', product_code: 'A1', qty: 30, so_doc_no: 'SO1' },
  { doc_no: 'DO1', line_no: 2, customer_code: 'C1', product_code: 'B1', qty: 10, so_doc_no: 'SO1' },
  { doc_no: 'DO2', line_no: 1, customer_code: 'C2', product_code: 'PR1', qty: 4, so_doc_no: 'SO2' },
  { doc_no: 'DO2', line_no: 2, customer_code: 'C2', product_code: 'PR1', qty: 2, so_doc_no: 'SO2' },
  { doc_no: 'DO5', line_no: 1, customer_code: 'C1', product_code: 'B1', qty: 1, so_doc_no: 'SO3' },
  { doc_no: 'DO3', line_no: 1, customer_code: 'C2', product_code: 'B1', qty: 5, so_doc_no: null },
  { doc_no: 'DO3', line_no: 2, customer_code: 'C2', product_code: 'PR2', qty: 3, so_doc_no: null },
  { doc_no: 'DO4', line_no: 1, customer_code: 'C1', product_code: 'A1', qty: 10, so_doc_no: 'SO1' },
];

/** The fixture has no QC or quarantine location: nothing pending QC (and the report must answer). */
export const EMPTY_REPORTS = ['product_pending_qc'];

/**
 * Production: PRD1 (11-10, machine M1, approved) made PR1 50 in lot LP1 and wasted 2.5 (cause CW1); PRD2 is a draft
 * (waste 9) and never counts. waste_product_summary_report 10-01 … 11-30: PR1 × CW1, 1 report, 2.5.
 */
export const WASTE: Row[] = [{ product_code: 'PR1', cause_code: 'CW1', report_count: 1, qty: 2.5 }];
export const DIVIDE: Row[] = [{ doc_no: 'PRD1', doc_date: '2026-11-10', machinery_code: 'M1', product_code: 'PR1', lot_no: 'LP1', qty: 50 }];

/**
 * Asset AST-01: borrowed by ST1 until 2026-12-31 and returned, then sent for modification and finished at 1,500.00,
 * all on the day the test runs (the asset history is stamped with the time of the action): asked for today.
 */
export const ASSET_BORROW: Row[] = [
  { asset_code: 'AST-01', action: 'borrow', staff_code: 'ST1', due_date: '2026-12-31' },
  { asset_code: 'AST-01', action: 'return', staff_code: 'ST1', due_date: null },
];
export const ASSET_MODIFY: Row[] = [
  { asset_code: 'AST-01', action: 'modify', description: 'เปลี่ยนใบมีด', cost: 0 },
  { asset_code: 'AST-01', action: 'finish_modify', description: 'เปลี่ยนใบมีด', cost: 1500 },
];

/** wht_attachment 2026-11, ภ.ง.ด.53: W2 (S1, 1,000.00 × 3 %) and W3 (S2, 333.50 × 1 %), by date; ภ.ง.ด.3: W4 (S3). */
export const WHT_ATTACHMENT_PND53_NOV: Row[] = [
  { doc_no: 'W2', doc_date: '2026-11-10', payee: 'S1', branch_code: '00000', wht_rate: 3, amount_paid: 1000, tax_amount: 30 },
  { doc_no: 'W3', doc_date: '2026-11-11', payee: 'S2', branch_code: '00002', wht_rate: 1, amount_paid: 333.5, tax_amount: 3.34 },
];
/**
 * The RD Prep text of those (engine/reports/rd-prep-text.ts layout): the fixture's suppliers have no address,
 * so the five address fields are empty; dates in the Buddhist era (2026 + 543 = 2569); condition 1 (withheld).
 */
export const RD_PREP_PND53_NOV = (taxIds: Record<string, string>): string =>
  `1|${taxIds.S1}|00000||บริษัท ผู้ขาย หนึ่ง จำกัด||||||10112569|ค่าบริการ|3|1,000.00|30.00|1\r\n`
  + `2|${taxIds.S2}|00002||บริษัท ผู้ขาย สอง จำกัด||||||11112569|ค่าบริการ|1|333.50|3.34|1\r\n`;
/** ภ.ง.ด.3: an individual, the name split into title, first and last name (17 fields). */
export const RD_PREP_PND3_NOV = (taxIds: Record<string, string>): string =>
  `1|${taxIds.S3}|00000|นาย|ช่าง|สาม||||||12112569|ค่าบริการ|3|333.50|10.01|1\r\n`;
