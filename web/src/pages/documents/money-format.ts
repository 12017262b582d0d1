const MONEY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const QTY = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: 4 });

/** Baht with thousands separators and two decimals, as every money column shows it. */
export const formatMoney = (n: number): string => MONEY.format(n);
/** A measured value: money for amounts, up to 4 decimals for quantities. */
export const formatMeasure = (n: number, measure: string): string => (measure === 'amount' ? MONEY.format(n) : QTY.format(n));
