/**
 * Printed Thai breaks lines between words, loanwords included (issue 47 §4): a text made of the words
 * listed here, in a random order, is printed in a narrow column and read back with pdftotext; every
 * line must end where one of these words ends. The list is this test's own, not the printer's
 * dictionary: it holds words ICU cuts wrongly (โปร|โม|ชั่น) and everyday words. Also: text copied out of
 * the PDF is the text typed (SARA AM as U+0E33). PROPERTY_SEED replays an order.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfMake } from '../../server/print/pdf-fonts.ts';
import { scriptRuns } from '../../server/print/thai-text.ts';

const WORDS = [
  'โปรโมชั่น', 'บาร์โค้ด', 'เครื่องจักรกล', 'คอมพิวเตอร์', 'ซอฟต์แวร์', 'อินเทอร์เน็ต', 'พลาสติก', 'สติกเกอร์',
  'สินค้า', 'พร้อม', 'สำหรับ', 'ราคา', 'จำนวน', 'ลูกค้า', 'บริษัท', 'ขนส่ง', 'น้ำมัน', 'การเกษตร', 'อุปกรณ์', 'ติดตั้ง',
];

async function pdfLines(runs: object[], width: number): Promise<string[]> {
  const pdf = await pdfMake().createPdf({ pageSize: 'A4', content: [{ columns: [{ width, text: runs }, { width: '*', text: '' }] }], defaultStyle: { font: 'SarabunLatin', fontSize: 10 } }).getBuffer();
  const dir = mkdtempSync(join(tmpdir(), 'bo-words-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    execFileSync('pdftotext', ['-raw', join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    return readFileSync(join(dir, 'doc.txt'), 'utf8').split('\n').map((l) => l.replace(/[\s\u200B\f]+/g, '')).filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A small seeded generator (mulberry32): the order is random per run and replayable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('Thai words on paper', () => {
  it('no printed line ends inside a word of the list', async () => {
    const seed = Number(process.env.PROPERTY_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const next = random(seed);
    const order = Array.from({ length: 60 }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    const text = order.join('');
    const ends = new Set<number>();
    let at = 0;
    for (const w of order) ends.add((at += w.length));
    for (const width of [70, 110, 160]) {
      const lines = await pdfLines(scriptRuns(text), width);
      expect(lines.join(''), `PROPERTY_SEED=${seed}`).toBe(text);
      let end = 0;
      const inside = lines.slice(0, -1).filter((l) => !ends.has((end += l.length))).map((l) => `…${l.slice(-8)} (width ${width})`);
      end = 0;
      expect(inside, `PROPERTY_SEED=${seed}`).toEqual([]);
    }
  });

  it('copies out as typed: จำกัด and น้ำ with SARA AM (U+0E33), า and ำ told apart', async () => {
    const typed = 'บริษัท น้ำทิพย์ จำกัด กาแฟ ทำ ค่ำ';
    const lines = await pdfLines([...scriptRuns(typed), { text: ' ' }, ...scriptRuns('จำนวน ราคา', true)], 400);
    const out = lines.join('');
    expect(out).toContain('จำกัด');
    expect(out).toContain('น้ำทิพย์');
    expect(out).toContain('กาแฟ');
    expect(out).toContain('จำนวนราคา');
    expect(out).not.toContain('\u0E4D');
  });
});
