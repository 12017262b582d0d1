import { i18n } from '../../core/i18n.ts';

/** Texts of the report screen, [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['report.total', 'รวม', 'Total'],
  ['report.empty', 'ไม่มีข้อมูลตามเงื่อนไขนี้', 'No rows for these parameters'],
  ['report.rows', '{{count}} แถว', '{{count}} rows'],
  ['report.export_csv', 'ส่งออก CSV', 'Export CSV'],
  ['report.export_xlsx', 'ส่งออก Excel', 'Export Excel'],
  ['report.print', 'พิมพ์ PDF', 'Print PDF'],
  ['report.exporting', 'กำลังส่งออก…', 'Exporting…'],
  ['report.exported_rows', 'ส่งออกแล้ว {{done}} จาก {{total}} แถว', '{{done}} of {{total}} rows exported'],
  ['report.exported_bytes', 'รับข้อมูลแล้ว {{kb}} KB จาก {{total}} แถว', '{{kb}} KB received of {{total}} rows'],
  ['report.any', 'ทั้งหมด', 'All'],
  ['report.chart', 'แผนภูมิ', 'Chart'],
  ['report.chart_limited', 'แผนภูมิแสดง {{count}} แถวแรก', 'The chart shows the first {{count}} rows'],
  ['report.prev', 'ก่อนหน้า', 'Previous'],
  ['report.next', 'ถัดไป', 'Next'],
  ['report.page', 'หน้า {{page}} / {{pages}}', 'Page {{page}} of {{pages}}'],
  ['report.not_found', 'ไม่พบรายงานนี้ หรือบทบาทของคุณไม่มีสิทธิ์ดู', 'There is no such report, or your role may not view it'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);

export const REPORT_TEXT_KEYS = ROWS.map((r) => r[0]);
