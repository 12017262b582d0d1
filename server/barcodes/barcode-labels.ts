import bwipjs from 'bwip-js';
import { pdfMake } from '../print/pdf-fonts.ts';
import { FONT_LATIN, scriptRuns } from '../print/thai-text.ts';

export type Symbology = 'code128' | 'qrcode';
export interface LabelRow {
  code: string;
  product: string;
  lot_no: string | null;
  expiry_date: string | null;
  pack_qty: number;
  unit: string | null;
}

/** One barcode image, drawn by bwip-js (the BWIPP encoder), as a PNG data URL pdfmake embeds. */
export async function barcodePng(code: string, symbology: Symbology): Promise<string> {
  const png = await bwipjs.toBuffer(symbology === 'qrcode'
    ? { bcid: 'qrcode', text: code, scale: 4 }
    : { bcid: 'code128', text: code, scale: 3, height: 12, includetext: false });
  return `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
}

/**
 * Labels on A4, three across: the barcode, its code in plain text (for a
 * person, and so the PDF can be searched), the product, lot, expiry and pack
 * quantity. The code under the bars is set in the PDF font rather than drawn by
 * the encoder, so a label says exactly what the scanner reads.
 */
export async function renderLabelsPdf(rows: LabelRow[], symbology: Symbology): Promise<Buffer> {
  const cells: object[] = [];
  for (const r of rows) {
    const details = [r.lot_no ? `LOT ${r.lot_no}` : null, r.expiry_date ? `EXP ${r.expiry_date}` : null, `${r.pack_qty}${r.unit ? ` ${r.unit}` : ''}`].filter(Boolean).join('  ');
    cells.push({
      stack: [
        { image: await barcodePng(r.code, symbology), fit: symbology === 'qrcode' ? [90, 90] : [160, 50], alignment: 'center' },
        { text: r.code, alignment: 'center', fontSize: 9, margin: [0, 2, 0, 0] },
        { text: scriptRuns(r.product), alignment: 'center', fontSize: 9 },
        { text: details, alignment: 'center', fontSize: 8 },
      ],
      margin: [4, 8, 4, 8],
    });
  }
  const body: object[][] = [];
  for (let i = 0; i < cells.length; i += 3) body.push([0, 1, 2].map((k) => cells[i + k] ?? { text: '' }));
  const doc = {
    pageSize: 'A4', pageMargins: [20, 20, 20, 20],
    defaultStyle: { font: FONT_LATIN, fontSize: 9 },
    content: body.length ? [{ table: { widths: ['*', '*', '*'], dontBreakRows: true, body }, layout: 'noBorders' }] : [{ text: '' }],
  };
  return pdfMake().createPdf(doc).getBuffer();
}
