/**
 * Thai text for pdfmake. Thai writes words without spaces, and pdfmake's line
 * breaker (Unicode UAX 14 without a dictionary) finds no break inside a Thai
 * run, so a long description would overflow its cell. Intl.Segmenter knows
 * Thai words: a zero-width space between them gives the breaker its chances
 * (fontkit lays U+200B out with zero advance, so nothing shows).
 * The Sarabun font comes as per-script subsets, so text is also cut into runs
 * of Thai and non-Thai characters, each set in the matching subset font.
 */
import { KEPT_WORDS } from './thai-words.ts';

const ZWSP = '\u200B';
const segmenter = new Intl.Segmenter('th', { granularity: 'word' });
const THAI = /[\u0E00-\u0E7F]/;

const KEPT = new Set(KEPT_WORDS);
const LONGEST = Math.max(...KEPT_WORDS.map((w) => w.length));

/**
 * The words of a text: a word of KEPT_WORDS where one starts (longest first; a short one only at a word
 * boundary, ICU's or the end of a kept word), ICU's words in between. ICU's dictionary does not know many loanwords and
 * cuts them, and what follows them, wrongly ("โปร|โม|ชั่|นพ|ร้|อม"), so a kept word is taken out first and
 * the rest segmented anew.
 */
export function thaiWords(text: string): string[] {
  const starts = new Set([...segmenter.segment(text)].map((s) => s.index));
  const out: string[] = [];
  const flush = (from: number, to: number) => {
    if (to > from) for (const { segment } of segmenter.segment(text.slice(from, to))) out.push(segment);
  };
  let pending = 0;
  for (let i = 0; i < text.length;) {
    let word = '';
    // a long kept word is taken wherever it stands (ICU may not see where it starts); a short one, which
    // could be part of a longer word, only where a word starts
    const anywhere = !(starts.has(i) || i === pending);
    for (let len = Math.min(LONGEST, text.length - i); len > (anywhere ? 4 : 1) && !word; len--) if (KEPT.has(text.slice(i, i + len))) word = text.slice(i, i + len);
    if (!word) { i++; continue; }
    flush(pending, i);
    out.push(word);
    i += word.length;
    pending = i;
  }
  flush(pending, text.length);
  return out;
}

export function breakThaiWords(text: string): string {
  if (!THAI.test(text)) return text;
  let out = '';
  let prevThai = false;
  for (const segment of thaiWords(text)) {
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
  noWrap?: boolean;
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
  const src = breakThaiWords(text);
  const runs: TextRun[] = [];
  const b = bold ? { bold } : {};
  let cur = '';
  let curThai: boolean | null = null;
  const flush = () => {
    if (!cur) return;
    if (curThai) runs.push({ text: cur, font: FONT_THAI, ...b });
    // a number or a code ("TPT-RC202609-0003", "1,250.00", "10500") is one unbreakable piece: UAX 14 would
    // break it after a hyphen or a slash
    else for (const piece of cur.split(/(\S*\d\S*)/)) if (piece) runs.push({ text: piece, font: FONT_LATIN, ...b, ...(/\d/.test(piece) ? { noWrap: true } : {}) });
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
