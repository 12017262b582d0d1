import ExcelJS from 'exceljs';
import { AppError } from '../errors/app-error.ts';

/** A table read from an uploaded file: the header row and the data rows as text, with their row numbers in the file. */
export interface TableFile {
  headers: string[];
  rows: { row: number; cells: string[] }[];
}

/** RFC 4180 CSV: quoted fields with "" escapes, commas and newlines inside quotes, CRLF or LF, a UTF-8 BOM. */
export function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') { cell += '"'; i++; } else quoted = false;
      } else cell += ch;
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') { row.push(cell); cell = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell); out.push(row); row = []; cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) { row.push(cell); out.push(row); }
  return out;
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((r) => r.text).join('');
    if ('result' in v) return cellText(v.result as ExcelJS.CellValue);
    if ('text' in v) return String(v.text);
    return '';
  }
  return String(v);
}

/** Reads CSV or XLSX (by content: an XLSX is a ZIP, "PK…"); blank rows are left out. */
export async function readTableFile(data: Buffer, name: string): Promise<TableFile> {
  let grid: string[][];
  if (data.subarray(0, 2).toString('latin1') === 'PK') {
    const wb = new ExcelJS.Workbook();
    try { await wb.xlsx.load(data as never); } catch (err) { throw new AppError('BAD_REQUEST', `${name} is not a readable XLSX file: ${(err as Error).message}`); }
    const sheet = wb.worksheets[0];
    if (!sheet) throw new AppError('BAD_REQUEST', `${name} has no worksheet`);
    grid = [];
    sheet.eachRow({ includeEmpty: true }, (r, n) => {
      const values = (r.values as ExcelJS.CellValue[]).slice(1).map(cellText);
      grid[n - 1] = values;
    });
    for (let i = 0; i < grid.length; i++) grid[i] ??= [];
  } else {
    const text = data.toString('utf8');
    if (text.includes('\u0000')) throw new AppError('BAD_REQUEST', `${name} is neither CSV (UTF-8 text) nor XLSX`);
    grid = parseCsv(text);
  }
  const [head, ...body] = grid;
  if (!head || head.every((h) => !h.trim())) throw new AppError('BAD_REQUEST', `${name} has no header row`);
  const rows = body.map((cells, i) => ({ row: i + 2, cells })).filter((r) => r.cells.some((c) => c.trim() !== ''));
  return { headers: head.map((h) => h.trim()), rows };
}
