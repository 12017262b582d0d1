/**
 * No line break inside a Thai word, anywhere in a printed document (issue 34
 * §1): every document schema is printed with long Thai values in its header,
 * parties and lines, the PDF is read back with `pdftotext -layout`, and every
 * piece of Thai text on a line must start and end where Intl.Segmenter puts a
 * word boundary in the text it came from (titles, labels and cells alike).
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSchemaSet } from '../../engine/schema/schema-loader.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { partyFields, printDefinition, type DocumentPrint } from '../../server/print/document-pdf.ts';
import { pdfMake } from '../../server/print/pdf-fonts.ts';
import { thaiWords } from '../../server/print/thai-text.ts';
import { SCHEMAS_DIR } from '../support/test-app.ts';

/**
 * Compared without spaces and without Thai marks above and below the line: pdftotext -layout places a mark
 * that the font shifts (GPOS) out of order, even on another line, so only base letters are compared.
 */
const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B\u2060\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]+/g, '');
const THAI = /[\u0E00-\u0E7F]/;
const segmenter = new Intl.Segmenter('th', { granularity: 'word' });

const LONG = 'ค่าสินค้าตามใบกำกับภาษีสำหรับงานติดตั้งระบบคลังสินค้าอัตโนมัติพร้อมอุปกรณ์สแกนบาร์โค้ดและการฝึกอบรมพนักงานคลังสินค้าทุกสาขาทั่วประเทศไทย';
const COMPANY = { code: 'HQ', name_th: 'บริษัท ไทยบรรจุภัณฑ์อุตสาหกรรมและการพิมพ์ จำกัด (มหาชน)', tax_id: '0105558000011', branch_code: '00000', address_line: '99/9 หมู่ที่ 4 ถนนพระรามที่สอง', sub_district: 'แขวงแสมดำ', district: 'เขตบางขุนเทียน', province: 'กรุงเทพมหานคร', postal_code: '10150' };
const CUSTOMER = { ...COMPANY, code: 'C1', name_th: 'ห้างหุ้นส่วนจำกัด ศรีสวัสดิ์การค้าและขนส่งระหว่างประเทศ', tax_id: '0745540000011', branch_code: '00001', branch_name: 'สาขาสมุทรสาคร' };

const schemas = loadSchemaSet(readdirSync(SCHEMAS_DIR).filter((f) => f.endsWith('.json')).map((file) => ({ file, text: readFileSync(join(SCHEMAS_DIR, file), 'utf8') })));
const byName = new Map(schemas.map((s) => [s.name, s]));

/** A value for every field of a record: long Thai for text, so that it has to wrap. */
function sample(e: EntitySchema): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [n, f] of Object.entries(e.fields)) {
    if (f.type === 'date' || f.type === 'datetime') row[n] = '2026-11-18';
    else if (f.type === 'money') row[n] = '12500.50';
    else if (f.type === 'decimal' || f.type === 'integer') row[n] = 3;
    else if (f.type === 'enum') row[n] = f.options?.at(-1)?.value;
    else if (f.type === 'boolean') row[n] = true;
    else if (f.type === 'string' || f.type === 'text') row[n] = n === e.numbering?.field || n === e.titleField ? 'IV2611-0001' : LONG;
  }
  return row;
}

function printOf(e: EntitySchema): DocumentPrint {
  const row = sample(e);
  const lineEntities: DocumentPrint['lineEntities'] = {};
  for (const [n, f] of Object.entries(e.fields)) {
    if (f.type !== 'lines' || !f.entity) continue;
    lineEntities[n] = byName.get(f.entity)!;
    row[n] = [sample(byName.get(f.entity)!), sample(byName.get(f.entity)!)];
  }
  const links: DocumentPrint['links'] = {};
  for (const [n, f] of Object.entries(e.fields)) if (f.type === 'link') links[n] = f.entity === 'your_company' ? COMPANY : CUSTOMER;
  return { entity: e, row, lineEntities, links, parties: partyFields(e, (n) => byName.get(n)) };
}

/** Every text the definition prints, as pdfmake receives it (runs joined). */
function sources(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    if (node.length && node.every((r) => r && typeof r === 'object' && 'font' in r)) out.push(node.map((r) => r.text).join(''));
    else node.forEach((n) => sources(n, out));
  } else if (node && typeof node === 'object') Object.values(node).forEach((v) => sources(v, out));
  else if (typeof node === 'string') out.push(node);
  return out;
}

/**
 * Squeezed offsets at which Intl.Segmenter ends a word of `s`, or the print's own segmenter does (it takes
 * loanwords ICU cuts wrongly out first and segments the rest anew; thai-word-list.test.ts checks it against
 * a word list of its own).
 */
function boundaries(s: string): Set<number> {
  const set = new Set<number>([0]);
  for (const x of segmenter.segment(s)) set.add(squeeze(s.slice(0, x.index + x.segment.length)).length);
  let at = 0;
  for (const w of thaiWords(s)) set.add(squeeze(s.slice(0, (at += w.length))).length);
  return set;
}

const MARKS = /[\u0E31\u0E34-\u0E3A\u0E47-\u0E4E]/g;

/**
 * The same definition without Thai marks above and below the line. The font gives them no advance, so
 * the lines break at the same places (checked below with pdftotext -raw); without them pdftotext -layout
 * keeps each printed line on one text line (a raised tone mark otherwise takes the letters after it to
 * a text line of its own, which reads like a break that is not in the PDF).
 */
function withoutMarks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutMarks);
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === 'text' && typeof v === 'string' ? v.replace(MARKS, '') : withoutMarks(v)]));
  return node;
}

/** A PDF of the definition (pdfmake lays out the nodes it is given: each definition is rendered once). */
async function render(def: object): Promise<Buffer> {
  return Buffer.from(await pdfMake().createPdf(def).getBuffer());
}

/** The PDF's text through pdftotext in one of its modes, as it copies out (not normalized). */
function pdfToText(pdf: Buffer, mode: '-layout' | '-raw' | ''): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-breaks-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftotext', [...(mode ? [mode] : []), join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    return readFileSync(join(dir, 'doc.txt'), 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The Thai pieces of the layout that do not start and end on a word boundary of any printed text. */
export function brokenWords(layout: string, texts: string[]): string[] {
  const typed = (t: string) => t.replace(/\u200B/g, '');
  const known = texts.filter((t) => THAI.test(t)).map((t) => ({ s: squeeze(t), b: boundaries(typed(t)) }));
  const bad: string[] = [];
  for (const line of layout.split('\n')) {
    // a space is always a word boundary; pdftotext also puts spaces between columns
    for (const piece of line.split(/\s+/).map(squeeze).filter((p) => THAI.test(p))) {
      const ok = known.some(({ s, b }) => {
        for (let at = s.indexOf(piece); at >= 0; at = s.indexOf(piece, at + 1)) if (b.has(at) && b.has(at + piece.length)) return true;
        return false;
      });
      if (!ok) bad.push(piece);
    }
  }
  return bad;
}

describe('Thai line breaks in printed documents', () => {
  for (const e of schemas.filter((s) => s.kind === 'document')) {
    for (const lang of ['th', 'en'] as const) {
      it(`${e.name} (${lang}) breaks lines only between Thai words`, async () => {
        const def = printDefinition(printOf(e), { lang });
        // the footer is a function; pdfmake calls it, the copy without marks keeps it as it is
        const bare = { ...(withoutMarks(def) as object), footer: (def as { footer: unknown }).footer };
        // each definition printed once and its PDF read in every mode needed (a render is most of this test's time)
        const [pdf, barePdf] = [await render(def), await render(bare)];
        const copiedRaw = pdfToText(pdf, '-raw');
        const rawLines = (text: string) => text.normalize('NFKC').split('\n').map(squeeze).filter(Boolean);
        expect(rawLines(pdfToText(barePdf, '-raw'))).toEqual(rawLines(copiedRaw));
        const layout = pdfToText(barePdf, '-layout').normalize('NFKC');
        if (process.env.SHOW_LAYOUT === e.name) console.log(layout);

        expect(squeeze(layout)).toContain(squeeze(LONG).slice(0, 20));
        // Thai copies out as typed: SARA AM is U+0E33, never NIKHAHIT + SARA AA (issue 47 §4), in the long
        // text every document prints and in the names of its parties; a document without parties (a transfer
        // between warehouses names no company) prints no company name to look for
        // in each of pdftotext's modes: the default one sorts glyphs by position, which once moved a tone mark
        const { party, issuer } = partyFields(e, (n) => byName.get(n));
        for (const copied of [copiedRaw, pdfToText(pdf, ''), pdfToText(pdf, '-layout')]) {
          expect(copied).toContain('กำกับ');
          if (party || issuer) expect(copied).toContain('จำกัด');
          expect(copied).not.toContain('\u0E4D');
        }
        const footer = (def as { footer?: (p: number, n: number) => unknown }).footer?.(1, 1) ?? null;
        const header = (def as { header?: (p: number, n: number) => unknown }).header?.(2, 2) ?? null;
        expect(brokenWords(layout, sources([def, footer, header]))).toEqual([]);
      });
    }
  }
});
