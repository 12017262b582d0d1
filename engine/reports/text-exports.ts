import { rdPrepText, type RdPrepForm, type RdPrepRow } from './rd-prep-text.ts';

/**
 * Fixed-layout text files a report file may offer besides CSV/XLSX/PDF (`"textExports": [{ "format", "label" }]`),
 * answered at GET /api/report/{name}/text/{format}. A layout set by someone else (a government filing program) is
 * code, once; which report offers it is declared in the report's file. The loader refuses an unknown format.
 */
export interface TextExport {
  /** The file's name from the report's parameters. */
  fileName(params: Record<string, unknown>): string;
  /** The whole file from the report's rows (all pages, in the report's order). */
  text(rows: Record<string, unknown>[], params: Record<string, unknown>): string;
  /** The report parameters the layout needs, with the values it accepts. */
  needs: Record<string, readonly string[]>;
}

export const TEXT_EXPORTS: Record<string, TextExport> = {
  /** ภ.ง.ด.3 / ภ.ง.ด.53 attachment for RD Prep (rd-prep-text.ts); the rows need the columns of RdPrepRow. */
  rd_prep: {
    needs: { pnd_form: ['pnd3', 'pnd53'] },
    fileName: (p) => `${String(p.pnd_form).toUpperCase()}_${String(p.month ?? '')}.txt`,
    text: (rows, p) => rdPrepText(p.pnd_form as RdPrepForm, rows as unknown as RdPrepRow[]),
  },
};
