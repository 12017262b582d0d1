import { i18n } from '../../core/i18n.ts';

/** Texts of the stock screens (incoming, outgoing, scanning, import), [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['stock.date', 'วันที่', 'Date'],
  ['stock.inventory', 'คลัง', 'Inventory'],
  ['stock.all_inventories', 'ทุกคลังที่มีสิทธิ์', 'Every inventory you may see'],
  ['stock.time', 'เวลา', 'Time'],
  ['stock.document', 'เอกสาร', 'Document'],
  ['stock.product', 'สินค้า', 'Product'],
  ['stock.lot', 'ล็อต', 'Lot'],
  ['stock.expiry', 'วันหมดอายุ', 'Expiry'],
  ['stock.qty', 'จำนวน', 'Quantity'],
  ['stock.type', 'ประเภท', 'Type'],
  ['stock.total', 'รวม', 'Total'],
  ['stock.incoming_hint', 'สินค้ารับเข้าคลังในวันที่เลือก ตามสมุดบัญชีสต็อก', 'Goods that came into stock on the chosen day, from the stock ledger'],
  ['stock.outgoing_hint', 'สินค้าออกจากคลังในวันที่เลือก ตามสมุดบัญชีสต็อก', 'Goods that left stock on the chosen day, from the stock ledger'],
  ['stock.more_rows', 'แสดง {{shown}} จาก {{total}} รายการ', 'Showing {{shown}} of {{total}}'],
  ['stock.prev_day', 'วันก่อนหน้า', 'Previous day'],
  ['stock.next_day', 'วันถัดไป', 'Next day'],
  ['stock.today', 'วันนี้', 'Today'],
  // scanning
  ['scan.title', 'สแกนบาร์โค้ด', 'Scan barcodes'],
  ['scan.input', 'บาร์โค้ด (ยิงเครื่องสแกนหรือพิมพ์แล้วกด Enter)', 'Barcode (scanner, or type and press Enter)'],
  ['scan.note', 'หมายเหตุการสแกน', 'Scan note'],
  ['scan.camera', 'สแกนด้วยกล้อง', 'Scan with the camera'],
  ['scan.camera_stop', 'ปิดกล้อง', 'Stop the camera'],
  ['scan.camera_unavailable', 'เบราว์เซอร์นี้ใช้กล้องสแกนบาร์โค้ดไม่ได้ ใช้เครื่องสแกนหรือพิมพ์รหัสแทน', 'This browser cannot scan barcodes with the camera; use a scanner or type the code'],
  ['scan.only_draft', 'สแกนได้เฉพาะเอกสารที่เป็นร่าง', 'Only a draft can be scanned into'],
  ['scan.counted', 'นับแล้ว', 'Counted'],
  ['scan.added', 'เพิ่มรายการใหม่', 'New line added'],
  ['scan.wanted', 'ในเอกสาร', 'On the document'],
  ['scan.scanned', 'สแกนแล้ว', 'Scanned'],
  ['scan.state.pending', 'ยังไม่สแกน', 'Not scanned'],
  ['scan.state.partial', 'สแกนบางส่วน', 'Partly scanned'],
  ['scan.state.done', 'ครบ', 'Complete'],
  ['scan.results', 'ผลการสแกนล่าสุด', 'Latest scans'],
  ['scan.over_scans', 'รายการสแกนเกิน (บันทึกไว้ ไม่นับเข้าเอกสาร)', 'Over-scans (recorded, not counted)'],
  ['scan.display_only', 'แสดงเฉพาะรายการที่สแกนแล้ว (ตามการตั้งค่าระบบ)', 'Showing only scanned lines (site setting)'],
  ['scan.print_labels', 'พิมพ์ฉลากบาร์โค้ด', 'Print barcode labels'],
  // import
  ['import.file', 'ไฟล์ CSV หรือ XLSX', 'CSV or XLSX file'],
  ['import.no_file', 'ยังไม่ได้เลือกไฟล์', 'No file chosen'],
  ['import.mode', 'วิธีนำเข้า', 'Import mode'],
  ['import.mode.all_or_nothing', 'ทั้งหมดหรือไม่นำเข้าเลย: ถ้ามีแถวผิดแม้แถวเดียว จะไม่นำเข้าแถวใดเลย', 'All or nothing: if any row is wrong, no row is imported'],
  ['import.mode.valid_rows', 'นำเข้าเฉพาะแถวที่ถูกต้อง: แถวที่ผิดจะถูกข้ามและแสดงในรายการข้อผิดพลาด', 'Import the valid rows: wrong rows are skipped and listed below'],
  ['import.preview', 'ตรวจสอบก่อนนำเข้า', 'Check (preview)'],
  ['import.run', 'นำเข้า', 'Import'],
  ['import.rows', 'จำนวนแถว', 'Rows'],
  ['import.valid', 'ถูกต้อง', 'Valid'],
  ['import.invalid', 'มีข้อผิดพลาด', 'With errors'],
  ['import.imported', 'นำเข้าแล้ว', 'Imported'],
  ['import.would_import', 'จะนำเข้า', 'Would import'],
  ['import.errors', 'ข้อผิดพลาดรายแถว', 'Errors per row'],
  ['import.row', 'แถว', 'Row'],
  ['import.column', 'คอลัมน์', 'Column'],
  ['import.reason', 'สาเหตุ', 'Reason'],
  ['import.progress', 'กำลังนำเข้า', 'Importing'],
  ['import.done', 'นำเข้าเสร็จแล้ว', 'Import finished'],
  ['import.failed', 'ไม่ได้นำเข้าแถวใดเลย', 'Nothing was imported'],
  ['import.columns_hint', 'หัวตารางแถวแรกต้องเป็นชื่อช่องของ{{entity}} (เช่น code) หรือชื่อหัวข้อภาษาไทยหรืออังกฤษ แบบเดียวกับไฟล์ที่ส่งออกจากหน้ารายการ', 'The first row must name fields of {{entity}} (such as code), or their Thai or English headings as a list export writes them'],
  ['import.sample', 'ตัวอย่างข้อมูล', 'Sample rows'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);
