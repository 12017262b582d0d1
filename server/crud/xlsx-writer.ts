import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FieldDef } from '../../engine/schema/schema-types.ts';
import { safeText } from './export-cells.ts';

export interface XlsxColumn {
  key: string;
  header: string;
  field?: FieldDef;
}

const NUMERIC = new Set(['integer', 'decimal', 'money']);

/** A cell value of the right kind: numbers as numbers, dates as dates, text through the export guards. */
function cellOf(col: XlsxColumn, v: unknown): ExcelJS.CellValue {
  if (v === null || v === undefined || v === '') return null;
  const type = col.field?.type;
  if (type && NUMERIC.has(type) && Number.isFinite(Number(v))) return Number(v);
  if (type === 'boolean') return Boolean(v) && v !== '0';
  if (type === 'date' || type === 'datetime') {
    const d = new Date(typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : String(v));
    if (!Number.isNaN(d.getTime())) return d;
  }
  return safeText(v);
}

function formatOf(field: FieldDef | undefined): string | undefined {
  switch (field?.type) {
    case 'money': return '#,##0.00';
    case 'date': return 'yyyy-mm-dd';
    case 'datetime': return 'yyyy-mm-dd hh:mm:ss';
    default: return undefined;
  }
}

/**
 * Streams rows into an .xlsx with exceljs's streaming writer: each row is
 * committed as soon as it is written, so a 200,000-row export does not hold
 * the whole sheet in memory. Answers the stream to send; errors of `rows`
 * end the stream with that error.
 */
export function xlsxStream(sheetName: string, columns: XlsxColumn[], rows: AsyncIterable<Record<string, unknown>>): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  // Excel refuses these characters and more than 31 of them in a sheet name
  const sheet = workbook.addWorksheet(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
  sheet.columns = columns.map((c) => ({ header: safeText(c.header), key: c.key, width: Math.min(40, Math.max(10, c.header.length + 2)), style: formatOf(c.field) ? { numFmt: formatOf(c.field) } : {} }));
  sheet.getRow(1).font = { bold: true };
  void (async () => {
    for await (const r of rows) sheet.addRow(columns.map((c) => cellOf(c, r[c.key]))).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((err) => out.destroy(err as Error));
  return out;
}
