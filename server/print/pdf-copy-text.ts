import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Text copied from our PDFs must be the text we printed (issue 47 §4: "จำกัด" with SARA AM, U+0E33).
 * The font's shaper draws ำ as NIKHAHIT + SARA AA, and pdfkit keeps one Unicode value per glyph of the
 * font (the first one it met), so the same SARA AA glyph could not copy as "า" in "กา" and as "ำ" in
 * "กำ". Here a glyph met with other code points than the first time gets a second id in the embedded
 * subset (the same outline): each id keeps its own ToUnicode entry, and a copy gives what was typed.
 * Checked by pdftotext in tests/print/thai-copy-text.test.ts.
 */
interface Glyph { id: number; codePoints: number[]; advanceWidth: number }
interface EmbeddedFont {
  subset: { includeGlyph(id: number): number; glyphs: number[] };
  widths: number[];
  unicode: number[][];
  scale: number;
  layout(text: string, features?: unknown): { glyphs: Glyph[]; positions: unknown[] };
  encode(text: string, features?: unknown): [string[], unknown[]];
  copyIds?: Map<string, number>;
  font: { glyphForCodePoint(cp: number): { id: number } };
  saraAa?: number;
  document: { ref(): { end(data: string): void } };
  toUnicodeCmap(): unknown;
}

const hex = (n: number) => n.toString(16).padStart(4, '0');
/** A code point as UTF-16 hex, a surrogate pair above U+FFFF. */
const utf16 = (cp: number) => (cp > 0xffff ? hex(0xd800 | ((cp - 0x10000) >>> 10)) + hex(0xdc00 | ((cp - 0x10000) & 0x3ff)) : hex(cp));

let patched = false;

export function installCopyableText(): void {
  if (patched) return;
  patched = true;
  const PDFDocument = require('pdfkit') as new (o?: object) => { font(src: Buffer): unknown; _font: EmbeddedFont; end(): void };
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const { dirname, join } = require('node:path') as typeof import('node:path');
  const file = join(dirname(require.resolve('@fontsource/sarabun/package.json')), 'files', 'sarabun-thai-400-normal.woff');
  const probe = new PDFDocument({ autoFirstPage: false });
  probe.font(readFileSync(file));
  const proto = Object.getPrototypeOf(probe._font) as EmbeddedFont;
  proto.encode = function encode(this: EmbeddedFont, text: string, features?: unknown): [string[], unknown[]] {
    const { glyphs, positions } = this.layout(text, features);
    const res: string[] = [];
    // fontkit caches a glyph with the code points of its first use, so a glyph cannot tell by itself whether
    // it came from ำ or from า (SARA AA) or ํ (NIKHAHIT); the text can: they come in the order of the letters.
    // ำ copies out from its SARA AA part, after any tone mark, as it is typed; its NIKHAHIT part stands for
    // nothing (zero width, so no reader sees a gap there)
    this.saraAa ??= this.font.glyphForCodePoint(0xe32).id;
    const vowels = [...text].filter((c) => c === '\u0E32' || c === '\u0E33');
    const rings = [...text].filter((c) => c === '\u0E4D' || c === '\u0E33');
    for (const glyph of glyphs) {
      let codePoints = glyph.codePoints;
      if (glyph.id === this.saraAa && vowels.length) codePoints = [vowels.shift() === '\u0E33' ? 0xe33 : 0xe32];
      else if (rings.length && codePoints.some((c) => c === 0xe33 || c === 0xe4d)) {
        codePoints = [...codePoints.filter((c) => c !== 0xe33 && c !== 0xe4d), ...(rings.shift() === '\u0E4D' ? [0xe4d] : [])];
      }
      let gid = this.subset.includeGlyph(glyph.id);
      const known = this.unicode[gid];
      if (known && known.join(',') !== codePoints.join(',')) {
        // the same glyph standing for other text: its own id, made once per (glyph, text)
        this.copyIds ??= new Map();
        const key = `${glyph.id}:${codePoints.join(',')}`;
        let copy = this.copyIds.get(key);
        if (copy === undefined) {
          this.subset.glyphs.push(glyph.id);
          copy = this.subset.glyphs.length - 1;
          this.copyIds.set(key, copy);
        }
        gid = copy;
      }
      res.push(`0000${gid.toString(16)}`.slice(-4));
      this.widths[gid] ??= glyph.advanceWidth * this.scale;
      this.unicode[gid] ??= codePoints;
    }
    return [res, positions];
  };
  // one bfchar per glyph that stands for text; a glyph standing for nothing (the SARA AA of ำ) is left out:
  // an empty entry in pdfkit's bfrange arrays made poppler shift the entries after it
  proto.toUnicodeCmap = function toUnicodeCmap(this: EmbeddedFont) {
    const cmap = this.document.ref();
    const entries = this.unicode.map((cps, gid) => (cps?.length ? `<${hex(gid)}> <${cps.map(utf16).join('')}>` : null)).filter((e): e is string => e !== null);
    const blocks: string[] = [];
    for (let i = 0; i < entries.length; i += 100) {
      const chunk = entries.slice(i, i + 100);
      blocks.push(`${chunk.length} beginbfchar\n${chunk.join('\n')}\nendbfchar`);
    }
    cmap.end(`/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def
/CMapName /Adobe-Identity-UCS def
/CMapType 2 def
1 begincodespacerange
<0000><ffff>
endcodespacerange
${blocks.join('\n')}
endcmap
CMapName currentdict /CMap defineresource pop
end
end`);
    return cmap;
  };
}
