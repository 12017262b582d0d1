/**
 * Amounts in words for printed documents: Thai (the bahttext package, the form
 * Thai revenue practice reads) and English for English prints.
 */
import { bahttext } from 'bahttext';
import { toDecimalString } from './decimal-value.ts';

function satangOf(amount: bigint | number): bigint {
  if (typeof amount === 'bigint') return amount;
  if (!Number.isSafeInteger(amount)) throw new Error(`an amount in words takes whole satang, not ${amount}`);
  return BigInt(amount);
}

/** 125050 satang → "หนึ่งพันสองร้อยห้าสิบบาทห้าสิบสตางค์"; whole baht end in "ถ้วน". */
export function bahtText(satang: bigint | number): string {
  const s = satangOf(satang);
  // decimal text, not a float: bahttext reads strings digit by digit, so large amounts stay exact
  return bahttext(toDecimalString(s, 2));
}

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion', 'quintillion'];

function below1000(n: number): string {
  const parts: string[] = [];
  if (n >= 100) { parts.push(`${ONES[Math.floor(n / 100)]} hundred`); n %= 100; }
  if (n >= 20) { parts.push(n % 10 ? `${TENS[Math.floor(n / 10)]}-${ONES[n % 10]}` : TENS[Math.floor(n / 10)]!); }
  else if (n > 0) parts.push(ONES[n]!);
  return parts.join(' ');
}

/** Whole numbers in English words: 1250n → "one thousand two hundred fifty". */
export function englishNumber(n: bigint): string {
  if (n < 0n) return `minus ${englishNumber(-n)}`;
  if (n === 0n) return 'zero';
  const groups: string[] = [];
  for (let i = 0; n > 0n; i++, n /= 1000n) {
    const g = Number(n % 1000n);
    if (i >= SCALES.length) throw new Error('amount too large to write in words');
    if (g) groups.unshift(SCALES[i] ? `${below1000(g)} ${SCALES[i]}` : below1000(g));
  }
  return groups.join(' ');
}

/** 125050 satang → "One thousand two hundred fifty baht and fifty satang"; whole baht end in "baht only". */
export function bahtTextEnglish(satang: bigint | number): string {
  const s = satangOf(satang);
  const neg = s < 0n;
  const abs = neg ? -s : s;
  const baht = abs / 100n;
  const st = abs % 100n;
  let text = st === 0n ? `${englishNumber(baht)} baht only`
    : baht === 0n ? `${englishNumber(st)} satang`
      : `${englishNumber(baht)} baht and ${englishNumber(st)} satang`;
  if (neg) text = `minus ${text}`;
  return text[0]!.toUpperCase() + text.slice(1);
}
