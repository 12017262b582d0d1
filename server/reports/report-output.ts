import type { ReportColumn, ReportDef } from '../../engine/reports/report-types.ts';
import type { FieldDef } from '../../engine/schema/schema-types.ts';
import { csvCell } from '../crud/export-cells.ts';
import { xlsxStream } from '../crud/xlsx-writer.ts';
import { pdfMake } from '../print/pdf-fonts.ts';
import { formatDate, formatMoney, formatQuantity, type PrintOptions } from '../print/print-format.ts';
import { formatIsoMonth } from '../../engine/format/dates.ts';
import { scriptRuns } from '../print/thai-text.ts';

type Row = Record<string, unknown>;
type Lang = 'th' | 'en';

/** The field type the spreadsheet writer formats a column by (money with 2 decimals, dates in the reader's calendar). */
export function fieldOfColumn(c: ReportColumn): FieldDef {
  const type = c.type === 'qty' ? 'decimal' : c.type === 'string' ? 'string' : c.type;
  return { type, label: c.label, ...(c.type === 'qty' ? { scale: 4 } : {}) } as FieldDef;
}

export const shownColumns = (def: ReportDef): ReportColumn[] => def.columns.filter((c) => !c.hidden);

/** "รายงานสต็อกคงเหลือ-2569-11-26.xlsx": the report's label and the day, in the reader's calendar. */
export function reportFileName(def: ReportDef, lang: Lang, today: string, ext: string): string {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const year = lang === 'th' ? y + 543 : y;
  const title = def.label[lang].replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ').trim();
  const name = `${title}-${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}.${ext}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename*=UTF-8''${encoded}; filename="${def.name}-${today}.${ext}"`;
}

/** The totals line appended after the rows: "รวม" in the first column, each total under its column. */
function totalsRow(def: ReportDef, totals: Row, lang: Lang): Row {
  const cols = shownColumns(def);
  const row: Row = { [cols[0]!.key]: lang === 'th' ? 'รวม' : 'Total' };
  for (const k of def.totals ?? []) row[k] = totals[k];
  return row;
}

export function reportXlsx(def: ReportDef, rows: AsyncIterable<Row>, totals: () => Promise<Row>, lang: Lang) {
  const cols = shownColumns(def).map((c) => ({ key: c.key, header: c.label[lang], field: fieldOfColumn(c) }));
  async function* withTotals() {
    yield* rows;
    if (def.totals?.length) yield totalsRow(def, await totals(), lang);
  }
  return xlsxStream(def.label[lang], cols, withTotals(), lang);
}

/** CSV for people: labels as the header, values as the API gives them (ISO dates, baht), a BOM so Excel reads Thai. */
export async function* reportCsv(def: ReportDef, rows: AsyncIterable<Row>, totals: () => Promise<Row>, lang: Lang): AsyncGenerator<string> {
  const cols = shownColumns(def);
  yield '\uFEFF' + cols.map((c) => csvCell(c.label[lang])).join(',') + '\r\n';
  for await (const r of rows) yield cols.map((c) => csvCell(r[c.key])).join(',') + '\r\n';
  if (def.totals?.length) { const t = totalsRow(def, await totals(), lang); yield cols.map((c) => csvCell(t[c.key])).join(',') + '\r\n'; }
}

function cellText(c: ReportColumn, v: unknown, o: PrintOptions): string {
  if (v === null || v === undefined) return '';
  // the PDF is read by people: a code's label (ภ.ง.ด.53, not pnd53) and a month as "พ.ย. 2569"
  const option = c.options?.find((x) => x.value === v);
  if (option) return option.label[o.lang === 'en' ? 'en' : 'th'];
  switch (c.type) {
    case 'money': return formatMoney(v);
    case 'qty': return formatQuantity(v, 4);
    case 'integer': return formatQuantity(v, 0);
    case 'date': return formatDate(v, o);
    case 'boolean': return v ? (o.lang === 'th' ? 'ใช่' : 'Yes') : (o.lang === 'th' ? 'ไม่ใช่' : 'No');
    default: return formatIsoMonth(String(v), o.lang) ?? String(v);
  }
}

const NUMERIC = new Set(['money', 'qty', 'integer']);

/** A PDF of the report in Thai: its title, the parameters it was run with, the rows and the totals. */
export async function reportPdf(def: ReportDef, params: { label: string; value: string }[], rows: Row[], totals: Row, truncated: boolean, o: PrintOptions): Promise<Buffer> {
  const cols = shownColumns(def);
  const t = (s: string, extra: object = {}) => ({ text: scriptRuns(s), ...extra });
  const b = (s: string, extra: object = {}) => ({ text: scriptRuns(s, true), ...extra });
  const align = (c: ReportColumn) => (NUMERIC.has(c.type) ? 'right' : 'left');
  const body: object[][] = [cols.map((c) => b(c.label[o.lang], { alignment: align(c) }))];
  for (const r of rows) body.push(cols.map((c) => t(cellText(c, r[c.key], o), { alignment: align(c) })));
  if (def.totals?.length) body.push(cols.map((c, i) => (i === 0 ? b(o.lang === 'th' ? 'รวม' : 'Total') : def.totals!.includes(c.key) ? b(cellText(c, totals[c.key], o), { alignment: 'right' }) : t(''))));
  const doc = {
    pageSize: 'A4',
    pageOrientation: cols.length > 6 ? 'landscape' : 'portrait',
    pageMargins: [30, 30, 30, 40],
    info: { title: def.label[o.lang], producer: 'Thai back office' },
    defaultStyle: { font: 'SarabunLatin', fontSize: 9 },
    footer: (page: number, pages: number) => t(`${o.lang === 'th' ? 'หน้า' : 'Page'} ${page}/${pages}`, { alignment: 'center', fontSize: 8 }),
    content: [
      b(def.label[o.lang], { fontSize: 15, margin: [0, 0, 0, 4] }),
      ...params.map((p) => t(`${p.label}: ${p.value}`)),
      ...(truncated ? [t(o.lang === 'th' ? 'แสดงเฉพาะแถวแรก ๆ ส่งออกเป็นไฟล์ Excel เพื่อดูทั้งหมด' : 'Only the first rows are printed; export to Excel for all of them', { color: '#B91C1C' })] : []),
      { margin: [0, 8, 0, 0], table: { headerRows: 1, widths: cols.map(() => '*'), body }, layout: 'lightHorizontalLines' },
    ],
  };
  return pdfMake().createPdf(doc).getBuffer();
}
