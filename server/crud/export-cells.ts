/**
 * What every exported text cell goes through (issue 8 §8). Bidirectional
 * controls can make a cell read differently from what it holds ("Trojan
 * source": an amount or a file name shown reversed), so they are replaced by
 * U+FFFD, which keeps a visible trace that something was there. A text that
 * a spreadsheet would run as a formula gets a leading apostrophe.
 */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
const FORMULA_START = /^[=+\-@\t\r]/;

export function neutraliseBidi(s: string): string {
  return s.replace(BIDI, '\uFFFD');
}

/** Numbers stay as they are ("-12.5" is a number, not a formula); other text starting with = + - @ tab CR is quoted. */
export function safeText(v: unknown): string {
  const s = neutraliseBidi(typeof v === 'object' ? JSON.stringify(v) : String(v));
  return FORMULA_START.test(s) && Number.isNaN(Number(s)) ? `'${s}` : s;
}

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const safe = safeText(v);
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
