/**
 * Exact decimals as scaled bigints: money is satang (scale 2), quantities scale 4,
 * percents scale 2. Binary floating point never touches an amount, so a total is
 * the same on the server, in the browser and in SQL sums.
 */

/** A value a person typed or a client sent that cannot be an exact decimal of the field's scale. */
export class DecimalInputError extends Error {
  /** The catalogue code the server answers with (engine/errors/error-catalogue.ts). */
  readonly code = 'VALIDATION_FAILED' as const;
  /** `fieldCode` and `params` name the field-level text (engine/errors/error-texts.ts) a person reads, in Thai too. */
  constructor(readonly field: string, message: string, readonly fieldCode = 'decimal', readonly params?: Record<string, string>) {
    super(`${field} ${message}`);
    this.name = 'DecimalInputError';
  }
}

const PLAIN = /^(-?)(\d+)(?:\.(\d+))?$/;
// what String(number) can give: 1e21, 1.5e-7
const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * Reads a JSON number or a decimal string ("1250.50") as an integer scaled by 10^scale.
 * Thousands separators ("1,250.50") are refused: the API takes machine values, and a comma
 * is a decimal mark in other locales. More decimals than `scale` are refused, never
 * rounded: 12.3400000001 for a 2-decimal field is an error, because silently dropping
 * digits would make the stored amount differ from what was sent. Trailing zeros are fine.
 */
export function parseDecimal(value: number | string, scale: number, field = 'value'): bigint {
  let m: RegExpExecArray | null;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new DecimalInputError(field, 'must be a finite number');
    // String() gives the shortest text that reads back as the same double: what the client wrote in JSON
    m = NUMBER_TEXT.exec(String(value));
  } else if (typeof value === 'string') {
    m = PLAIN.exec(value.trim());
  } else {
    throw new DecimalInputError(field, 'must be a number or a decimal string such as "1250.50"');
  }
  if (!m) throw new DecimalInputError(field, `is not a decimal number ("${String(value)}"); write it like 1250.50, without thousands separators`);
  const [, sign, whole, frac = '', exp] = m;
  let digits = whole! + frac;
  let decimals = frac.length - (exp ? Number(exp) : 0);
  if (decimals < 0) { digits += '0'.repeat(-decimals); decimals = 0; }
  // trailing zeros beyond the scale carry no value: 1.2500 is fine for 2 decimals
  while (decimals > scale && digits.endsWith('0')) { digits = digits.slice(0, -1); decimals--; }
  if (decimals > scale) throw new DecimalInputError(field, `has more than ${scale} decimal${scale === 1 ? '' : 's'} (${String(value)}); it is not rounded, send at most ${scale}`);
  const n = BigInt(digits) * 10n ** BigInt(scale - decimals);
  return sign === '-' ? -n : n;
}

/** Divides and rounds half away from zero (half-up on amounts), the rounding Thai documents use. */
export function roundDiv(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new Error('roundDiv needs a positive divisor');
  if (n < 0n) return -roundDiv(-n, d);
  return (2n * n + d) / (2n * d);
}

/** A scaled integer back to a JSON number (baht for scale 2); exact because it has at most `scale` decimals. */
export function toNumber(scaled: bigint, scale = 2): number {
  return Number(toDecimalString(scaled, scale));
}

/** A scaled integer as plain decimal text, always with `scale` decimals: 125050n, 2 → "1250.50". */
export function toDecimalString(scaled: bigint, scale = 2): string {
  const neg = scaled < 0n;
  const s = (neg ? -scaled : scaled).toString().padStart(scale + 1, '0');
  const text = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
  return neg ? `-${text}` : text;
}
