import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';

/** The text of a PDF answer, through poppler's pdftotext (what a reader would copy). */
export function pdfText(res: LightMyRequestResponse, layout = true): string {
  const dir = mkdtempSync(join(tmpdir(), 'bo-pdf-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), res.rawPayload);
    execFileSync('pdftotext', [...(layout ? ['-layout'] : []), join(dir, 'doc.pdf'), join(dir, 'doc.txt')]);
    // SARA AM is written into the PDF as NIKHAHIT + SARA AA (see server/print/thai-text.ts); NFKC gives both sides that form
    return readFileSync(join(dir, 'doc.txt'), 'utf8').normalize('NFKC');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Compared without spaces (pdftotext adds some between words) and in NFKC, like pdfText. */
export const squeeze = (s: string) => s.normalize('NFKC').replace(/[\s\u200B]+/g, '');
