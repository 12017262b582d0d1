import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { taxInvoiceRole } from '../../engine/documents/tax-invoice-role.ts';
import type { PrintLang } from './print-format.ts';
import { scriptRuns } from './thai-text.ts';

/**
 * The parts of a printed sales or finance document that its schema's `print`
 * key asks for (issue 34 §1): the company logo, the signature blocks at the
 * foot, the original/copy mark of each copy, and the receipt's title when it
 * also serves as a tax invoice. No entity is named here.
 */
export type CopyKind = 'original' | 'copy';

const COPY_WORDS: Record<CopyKind, Record<PrintLang, string>> = {
  original: { th: 'ต้นฉบับ', en: 'Original' },
  copy: { th: 'สำเนา', en: 'Copy' },
};
const SIGN_WORDS = { th: { date: 'วันที่' }, en: { date: 'Date' } };

/** ?copies=original,copy → the copies in that order; each is printed in full, one after another. */
export function parseCopies(raw: unknown): CopyKind[] | null {
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string') return [];
  const list = raw.split(',').map((s) => s.trim());
  return list.length <= 4 && list.every((c): c is CopyKind => c === 'original' || c === 'copy') ? list : [];
}

/** The boxed "ต้นฉบับ / Original" or "สำเนา / Copy" at the top right of a copy (both languages, Thai first). */
export function copyMarkNode(kind: CopyKind, lang: PrintLang): object {
  const words = COPY_WORDS[kind];
  const s = lang === 'th' ? `${words.th} / ${words.en}` : `${words.en} / ${words.th}`;
  return {
    columns: [{ width: '*', text: '' }, { width: 'auto', table: { body: [[{ text: scriptRuns(s, true), noWrap: true, color: kind === 'original' ? '#111827' : '#B91C1C' }]] } }],
    margin: [0, 0, 0, 6],
  };
}

/** The signature blocks the schema lists: a line to sign on, the name in brackets, the role, a date line. */
export function signatureNode(entity: EntitySchema, lang: PrintLang): object | null {
  const sigs = entity.print?.signatures ?? [];
  if (!sigs.length) return null;
  const line = (s: string, extra: object = {}) => ({ text: scriptRuns(s), alignment: 'center', noWrap: true, ...extra });
  return {
    unbreakable: true,
    margin: [0, 36, 0, 0],
    columns: sigs.map((sig) => ({
      width: '*',
      stack: [
        line('..........................................................'),
        line('(                                                        )', { margin: [0, 4, 0, 0] }),
        { text: scriptRuns(sig[lang], true), alignment: 'center', noWrap: true, margin: [0, 4, 0, 0] },
        line(`${SIGN_WORDS[lang].date} ........../........../..........`, { margin: [0, 4, 0, 0] }),
      ],
    })),
    columnGap: 12,
  };
}

/** A logo as pdfmake takes it: PNG or JPEG as a data URL, SVG as its text. */
export interface PrintLogo {
  mime: string;
  content: Buffer;
}

export function logoNode(logo: PrintLogo | null | undefined): object | null {
  if (!logo) return null;
  if (logo.mime === 'image/svg+xml') return { svg: logo.content.toString('utf8'), fit: [140, 56], margin: [0, 0, 0, 4] };
  if (logo.mime !== 'image/png' && logo.mime !== 'image/jpeg') return null;
  return { image: `data:${logo.mime};base64,${logo.content.toString('base64')}`, fit: [140, 56], margin: [0, 0, 0, 4] };
}

/**
 * The title of the print. A document whose schema gives a taxInvoiceTitle also
 * serves as a tax invoice when the issuing company is VAT registered, the
 * document carries VAT, and the site's tax_invoice setting names a mode with a title.
 */
export function printTitle(entity: EntitySchema, row: Record<string, unknown>, issuer: Record<string, unknown> | null | undefined, taxInvoiceMode: unknown, lang: PrintLang): string {
  const mode = taxInvoiceRole(entity, row, issuer, taxInvoiceMode);
  const title = mode ? entity.print?.taxInvoiceTitle?.[mode] : undefined;
  return title ? title[lang] : entity.label[lang];
}
