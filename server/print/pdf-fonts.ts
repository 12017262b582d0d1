import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FONT_LATIN, FONT_THAI } from './thai-text.ts';
import { installCopyableText } from './pdf-copy-text.ts';

const require = createRequire(import.meta.url);

/**
 * pdfmake's server build as one configured instance. Fonts are read from
 * @fontsource/sarabun (installed with the app, no system font needed) into
 * pdfmake's virtual file system, and every local file and URL access is refused:
 * documents are built from data, never from paths a record could name.
 */
interface PdfMake {
  virtualfs: { writeFileSync(name: string, data: Buffer): void };
  setFonts(fonts: Record<string, Record<string, string>>): void;
  setUrlAccessPolicy(cb: (url: string) => boolean): void;
  setLocalAccessPolicy(cb: (path: string) => boolean): void;
  createPdf(doc: object): { getBuffer(): Promise<Buffer> };
}

let instance: PdfMake | null = null;

export function pdfMake(): PdfMake {
  if (instance) return instance;
  installCopyableText();
  const pdf = require('pdfmake') as PdfMake;
  const dir = join(dirname(require.resolve('@fontsource/sarabun/package.json')), 'files');
  const family = (script: 'thai' | 'latin') => {
    const names: Record<string, string> = {};
    for (const [style, weight] of [['normal', 400], ['bold', 700], ['italics', 400], ['bolditalics', 700]] as const) {
      const file = `sarabun-${script}-${weight}-normal.woff`;
      pdf.virtualfs.writeFileSync(file, readFileSync(join(dir, file)));
      names[style] = file;
    }
    return names;
  };
  pdf.setFonts({ [FONT_THAI]: family('thai'), [FONT_LATIN]: family('latin') });
  pdf.setUrlAccessPolicy(() => false);
  pdf.setLocalAccessPolicy(() => false);
  instance = pdf;
  return pdf;
}
