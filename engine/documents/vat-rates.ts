/** Thai VAT rates by date of effect; a document uses the rate in force on its document date. */
export interface VatRatePeriod {
  /** First day (YYYY-MM-DD, business time zone) the rate applies. */
  from: string;
  /** Percent, e.g. 7. */
  rate: number;
}

/**
 * VAT began on 1992-01-01 (10 % by law, cut to 7 % by decree), went to 10 % on
 * 1997-08-16 and back to 7 % on 1999-04-01, extended by decree ever since.
 * A future change is one more row (or a table passed by the caller).
 */
export const THAI_VAT_RATES: readonly VatRatePeriod[] = [
  { from: '1992-01-01', rate: 7 },
  { from: '1997-08-16', rate: 10 },
  { from: '1999-04-01', rate: 7 },
];

export const DEFAULT_VAT_RATE = 7;

/** The rate in force on `date` (YYYY-MM-DD); dates before the table take its first rate. */
export function vatRateOn(date: string, table: readonly VatRatePeriod[] = THAI_VAT_RATES): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`vatRateOn needs a YYYY-MM-DD date, not "${date}"`);
  if (!table.length) return DEFAULT_VAT_RATE;
  const sorted = [...table].sort((a, b) => a.from.localeCompare(b.from));
  let rate = sorted[0]!.rate;
  for (const p of sorted) if (p.from <= date) rate = p.rate;
  return rate;
}
