/**
 * Issue 50 §5, the reports that must agree with the books, read through the API as an accountant reads them:
 * the receivable and payable accounts against the party ledgers, the balance sheet's two sides, the P&L against
 * the trial balance, and the month's VAT accounts against the tax reports and the ภ.พ.30 worksheet.
 * Answers what does not agree, as readable lines (empty when everything does).
 */
import type { StockClient } from './stock-fixtures.ts';

type Row = Record<string, any>;
interface Report { rows: Row[]; totals: Row }

const cents = (n: unknown) => Math.round(Number(n ?? 0) * 100);

export function reportOf(c: StockClient) {
  return async (name: string, query: Record<string, string | number>): Promise<Report> => {
    const qs = new URLSearchParams(Object.entries({ ...query, limit: '1000' }).map(([k, v]) => [k, String(v)]));
    const res = await c.call('GET', `/api/report/${name}?${qs}`, c.admin);
    if (res.statusCode !== 200) throw new Error(`report ${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    return res.json().data as Report;
  };
}

/** The last day of a month `YYYY-MM`. */
export function lastDay(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(new Date(Date.UTC(y, m, 0)).getUTCDate()).padStart(2, '0')}`;
}

/**
 * The reconciliations of §5 for one company, for the month of `day` (VAT) and the year up to `day` (P&L, ledgers).
 * Every receivable / payable balance must name its customer / supplier.
 */
export async function booksDisagree(c: StockClient, company: number, day: string): Promise<string[]> {
  const report = reportOf(c);
  const out: string[] = [];
  const month = day.slice(0, 7);
  const yearStart = `${day.slice(0, 4)}-01-01`;
  const tb = await report('trial_balance', { date_from: yearStart, date_to: day, company });
  const closing = (role: string) => tb.rows.filter((r) => r.role === role).reduce((s, r) => s + cents(r.closing_balance), 0);
  const sumOf = (rows: Row[], key: string) => rows.reduce((s, r) => s + cents(r[key]), 0);

  if (cents(tb.totals.debit) !== cents(tb.totals.credit)) out.push(`trial balance debit ${tb.totals.debit} ≠ credit ${tb.totals.credit}`);

  // receivable = Σ customers' closing; payable = Σ suppliers' closing (the payable ledger is credit-positive)
  const ar = await report('receivable_ledger', { date_from: yearStart, date_to: day, company });
  if (closing('receivable') !== cents(ar.totals.closing)) out.push(`receivable account ${closing('receivable')} ≠ Σ receivable_ledger ${cents(ar.totals.closing)} (satang)`);
  if (cents(ar.totals.closing) !== sumOf(ar.rows, 'closing')) out.push('receivable_ledger totals ≠ Σ its rows');
  if (ar.rows.some((r) => r.customer_id === null && cents(r.closing) !== 0)) out.push('a receivable balance names no customer');
  const ap = await report('payable_ledger', { date_from: yearStart, date_to: day, company });
  if (-closing('payable') !== cents(ap.totals.closing)) out.push(`payable account ${-closing('payable')} ≠ Σ payable_ledger ${cents(ap.totals.closing)} (satang)`);
  if (ap.rows.some((r) => r.supplier_id === null && cents(r.closing) !== 0)) out.push('a payable balance names no supplier');

  // assets = liabilities + equity, the profit not yet closed in equity; each side as the trial balance has it
  const bs = await report('balance_sheet', { as_of: day, company });
  if (cents(bs.totals.total_assets) !== cents(bs.totals.total_liabilities_and_equity)) out.push(`balance sheet: assets ${bs.totals.total_assets} ≠ liabilities and equity ${bs.totals.total_liabilities_and_equity}`);
  const byType = (type: string) => tb.rows.filter((r) => r.account_type === type).reduce((s, r) => s + cents(r.closing_balance), 0);
  if (cents(bs.totals.total_assets) !== byType('asset')) out.push(`balance sheet assets ${cents(bs.totals.total_assets)} ≠ the trial balance's ${byType('asset')}`);

  // net profit = income − expenses of the trial balance, for the year to date
  const pl = await report('profit_and_loss', { date_from: yearStart, date_to: day, company });
  const movement = (type: string) => tb.rows.filter((r) => r.account_type === type).reduce((s, r) => s + cents(r.debit) - cents(r.credit), 0);
  const [income, expense] = [-movement('income'), movement('expense')];
  if (cents(pl.totals.net_profit) !== income - expense || cents(pl.totals.total_income) !== income || cents(pl.totals.total_expense) !== expense) {
    out.push(`P&L ${JSON.stringify(pl.totals)} ≠ trial balance income ${income} − expenses ${expense} (satang)`);
  }

  // the month's VAT: the accounts moved by what the tax reports and the ภ.พ.30 say
  const tbMonth = await report('trial_balance', { date_from: `${month}-01`, date_to: lastDay(month), company });
  const moved = (role: string) => tbMonth.rows.filter((r) => r.role === role).reduce((s, r) => s + cents(r.debit) - cents(r.credit), 0);
  const vat = (await report('vat_return', { month, company })).totals;
  const sales = (await report('sales_tax_report', { month, company })).totals;
  const purchases = (await report('purchase_tax_report', { month, company })).totals;
  const output = [-moved('output_vat'), cents(sales.vat_amount), cents(vat.output_vat)];
  if (new Set(output).size !== 1) out.push(`output VAT of ${month}: account ${output[0]}, sales_tax_report ${output[1]}, vat_return ${output[2]} (satang)`);
  const input = [moved('input_vat'), cents(purchases.vat_amount), cents(vat.input_vat)];
  if (new Set(input).size !== 1) out.push(`input VAT of ${month}: account ${input[0]}, purchase_tax_report ${input[1]}, vat_return ${input[2]} (satang)`);
  return out;
}
