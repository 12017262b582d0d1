/**
 * Thai text for pdfmake. Thai writes words without spaces, and pdfmake's line
 * breaker (Unicode UAX 14 without a dictionary) finds no break inside a Thai
 * run, so a long description would overflow its cell. Intl.Segmenter knows
 * Thai words: a zero-width space between them gives the breaker its chances
 * (fontkit lays U+200B out with zero advance, so nothing shows).
 * The Sarabun font comes as per-script subsets, so text is also cut into runs
 * of Thai and non-Thai characters, each set in the matching subset font.
 */
const ZWSP = '\u200B';
const segmenter = new Intl.Segmenter('th', { granularity: 'word' });
const THAI = /[\u0E00-\u0E7F]/;

/**
 * SARA AM (ำ) is drawn as NIKHAHIT + SARA AA by the shaper; pdfkit then records
 * one Unicode value per glyph, so the SARA AA glyph could copy out as "ำ" or
 * not at all, wherever it appears. Giving the shaper the two letters (in the
 * shaped order, NIKHAHIT before any tone mark) keeps the look and makes text
 * copied from the PDF come out right (NFKC turns "ํา" back into "ำ").
 */
export function decomposeSaraAm(text: string): string {
  return text.replace(/([\u0E48-\u0E4B]?)\u0E33/g, '\u0E4D$1\u0E32');
}

export function breakThaiWords(text: string): string {
  if (!THAI.test(text)) return text;
  let out = '';
  let prevThai = false;
  for (const { segment } of segmenter.segment(text)) {
    const thai = THAI.test(segment);
    if (thai && prevThai) out += ZWSP;
    out += segment;
    prevThai = thai;
  }
  return out;
}

export interface TextRun {
  text: string;
  font: string;
  bold?: boolean;
  fontSize?: number;
}

/** Font family names registered in pdf-fonts.ts. */
export const FONT_THAI = 'SarabunThai';
export const FONT_LATIN = 'SarabunLatin';

/**
 * Splits text into runs by script. A zero-width space is in neither Sarabun
 * subset (pdfkit would draw a .notdef box), so each one becomes a run of its own
 * at a size too small to see: pdfmake still breaks the line after it, because it
 * asks the line breaker about the joint of two runs.
 */
export function scriptRuns(text: string, bold = false): TextRun[] {
  const src = decomposeSaraAm(breakThaiWords(text));
  const runs: TextRun[] = [];
  const b = bold ? { bold } : {};
  let cur = '';
  let curThai: boolean | null = null;
  const flush = () => {
    if (cur) runs.push({ text: cur, font: curThai ? FONT_THAI : FONT_LATIN, ...b });
    cur = '';
  };
  for (const ch of src) {
    if (ch === ZWSP) {
      flush();
      runs.push({ text: ZWSP, font: FONT_THAI, fontSize: 0.01, ...b });
      continue;
    }
    const thai: boolean = ch === ' ' ? curThai ?? false : THAI.test(ch);
    if (curThai !== null && thai !== curThai) flush();
    cur += ch;
    curThai = thai;
  }
  flush();
  return runs;
}
