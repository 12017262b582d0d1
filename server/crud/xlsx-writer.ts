import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FieldDef } from '../../engine/schema/schema-types.ts';
import { safeText } from './export-cells.ts';
import { enumLabel } from './export-columns.ts';

export interface XlsxColumn {
  key: string;
  header: string;
  field?: FieldDef;
}

const NUMERIC = new Set(['integer', 'decimal', 'money']);

/** A cell value of the right kind: numbers as numbers, dates as dates, enums as their labels, text through the export guards. */
function cellOf(col: XlsxColumn, v: unknown, lang: 'th' | 'en'): ExcelJS.CellValue {
  if (v === null || v === undefined || v === '') return null;
  const type = col.field?.type;
  if (type === 'enum') return safeText(enumLabel(col.field, v, lang));
  if (type && NUMERIC.has(type) && Number.isFinite(Number(v))) return Number(v);
  if (type === 'boolean') return Boolean(v) && v !== '0';
  if (type === 'date' || type === 'datetime') {
    const d = new Date(typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : String(v));
    if (!Number.isNaN(d.getTime())) return d;
  }
  return safeText(v);
}

/**
 * Dates stay date cells and are shown in the reader's calendar. For Thai, the
 * locale modifier [$-xxyyzzzz] asks for Western digits (01), the Thai Buddhist
 * calendar (07) and the Thai locale (041E): Excel and LibreOffice both show the
 * year as 2569 while the cell holds the date, so sorting and formulas still work.
 */
export const THAI_DATE_FORMAT = '[$-107041E]d/m/yyyy';
export const THAI_DATETIME_FORMAT = '[$-107041E]d/m/yyyy hh:mm';

function formatOf(field: FieldDef | undefined, lang: 'th' | 'en'): string | undefined {
  switch (field?.type) {
    case 'money': return '#,##0.00';
    case 'date': return lang === 'th' ? THAI_DATE_FORMAT : 'd mmm yyyy';
    case 'datetime': return lang === 'th' ? THAI_DATETIME_FORMAT : 'd mmm yyyy hh:mm';
    default: return undefined;
  }
}

/**
 * exceljs's streaming writer hands the sheet's XML to its zip without waiting for it: rows read a page
 * of thousands at a time were queued uncompressed faster than they were compressed (the whole sheet,
 * about +100 MB for 100,000 rows). Waits while more than 1 MB waits for the zip (the sheet stream's
 * destinations, an exceljs internal: without them this does not wait).
 */
interface Buffered { _writableState?: { length?: number }; _readableState?: { length?: number } }
async function zipCaughtUp(sheet: ExcelJS.Worksheet, out: PassThrough): Promise<void> {
  const pipes = (sheet as unknown as { stream?: { pipes?: Buffered[] } }).stream?.pipes ?? [];
  // readable-stream's PassThrough (exceljs's copy) has no writableLength: its two buffers are read directly
  const waiting = () => pipes.some((p) => (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0) > 1 << 20);
  // a download given up destroys `out`: nothing drains any more, so stop waiting
  while (waiting() && !out.destroyed) await new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * Streams rows into an .xlsx with exceljs's streaming writer: each row is
 * committed as soon as it is written, so a 200,000-row export does not hold
 * the whole sheet in memory. Answers the stream to send; errors of `rows`
 * end the stream with that error.
 */
export function xlsxStream(sheetName: string, columns: XlsxColumn[], rows: AsyncIterable<Record<string, unknown>>, lang: 'th' | 'en' = 'th'): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // Excel refuses these characters and more than 31 of them in a sheet name
  const sheet = workbook.addWorksheet(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  sheet.columns = columns.map((c) => ({ header: safeText(c.header), key: c.key, width: Math.min(40, Math.max(10, c.header.length + 2)), style: formatOf(c.field, lang) ? { numFmt: formatOf(c.field, lang) } : {} }));
  sheet.getRow(1).font = { bold: true };
  void (async () => {
    let n = 0;
    for await (const r of rows) {
      sheet.addRow(columns.map((c) => cellOf(c, r[c.key], lang))).commit();
      if (++n % 200 === 0) await zipCaughtUp(sheet, out);
    }
    sheet.commit();
    await workbook.commit();
  })().catch((err) => out.destroy(err as Error));
  return out;
}
