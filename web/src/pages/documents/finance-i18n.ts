import { i18n } from '../../core/i18n.ts';

/** Texts of the create-from and collection summary screens, [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['create_from.customer', 'ลูกค้า', 'Customer'],
  ['create_from.pick_customer', 'เลือกลูกค้า', 'Choose a customer'],
  // the picker names the source's own party: a purchase order's is the supplier
  ['create_from.pick_party', 'เลือก{{party}}', 'Choose: {{party}}'],
  ['create_from.received', 'ยอดเงินที่ได้รับ', 'Amount received'],
  ['create_from.received_hint', 'กรอกยอดเดียว ระบบกระจายให้รายการที่ครบกำหนดก่อน (เว้นว่างเพื่อใช้ยอดในแต่ละรายการด้านล่าง)', 'One amount: it is spread over the lines due first (leave empty to take the amounts below)'],
  ['create_from.all_party', '{{party}}ทุกราย (เลือกเพื่อกรอง)', 'Every {{party}} (choose one to filter)'],
  ['create_from.none_open_party', '{{party}}รายนี้ไม่มีเอกสารที่ยังเปิดอยู่', 'This {{party}} has no open documents'],
  ['create_from.documents', 'เอกสารที่ยังดำเนินการไม่ครบ', 'Open documents'],
  ['create_from.none_open', 'ไม่มีเอกสารที่ยังเปิดอยู่', 'There are no open documents'],
  ['create_from.lines', 'รายการที่จะนำไปสร้าง', 'Lines to take'],
  ['create_from.pick_documents', 'เลือกเอกสารอย่างน้อยหนึ่งฉบับ', 'Choose at least one document'],
  ['create_from.document', 'เอกสาร', 'Document'],
  ['create_from.description', 'รายละเอียด', 'Description'],
  ['create_from.ordered.qty', 'จำนวนทั้งหมด', 'Quantity'],
  ['create_from.ordered.amount', 'ยอดทั้งหมด (หลังส่วนลด รวม VAT)', 'Amount (after discounts, VAT incl.)'],
  ['create_from.done', 'ดำเนินการแล้ว', 'Done'],
  ['create_from.remaining', 'คงเหลือ', 'Remaining'],
  ['create_from.take.qty', 'จำนวนที่นำไป', 'Quantity to take'],
  ['create_from.take.amount', 'ยอดที่นำไป', 'Amount to take'],
  ['create_from.create', 'สร้างเอกสาร', 'Create'],
  ['create_from.created', 'สร้างเอกสารแล้ว', 'Document created'],
  ['create_from.nothing', 'ไม่มีรายการที่จะนำไป', 'Nothing to take'],
  ['create_from.from_source', '{{field}}มาจากเอกสารต้นทาง แต่เอกสารที่เลือกไม่มีค่านี้ (เลือกเอกสารที่มี{{field}})', '{{field}} comes from the source documents, and the ones chosen have none (choose documents that have it)'],
  ['create_from.select', 'เลือก', 'Select'],
  ['create_from.header', 'ข้อมูลหัวเอกสารใหม่', 'New document header'],
  ['create_from.header_note', 'ช่องที่เว้นว่างจะใช้ค่าเริ่มต้น ลูกค้าและบริษัทมาจากเอกสารต้นทาง', 'Empty fields take their defaults; the customer and company come from the source documents'],
  ['create_from.product', 'สินค้า', 'Product'],
  ['collection.from', 'ตั้งแต่วันที่', 'From'],
  ['collection.to', 'ถึงวันที่', 'To'],
  ['collection.customer', 'ลูกค้า', 'Customer'],
  ['collection.bills', 'จำนวนใบวางบิล', 'Bills'],
  ['collection.billed', 'ยอดวางบิล', 'Billed'],
  ['collection.received', 'รับชำระแล้ว', 'Received'],
  ['collection.withheld', 'ภาษีถูกหัก ณ ที่จ่าย', 'Tax withheld'],
  ['collection.outstanding', 'ค้างชำระ', 'Outstanding'],
  ['collection.current', 'ยังไม่ถึงกำหนด', 'Not yet due'],
  ['collection.d1_30', 'เกิน 1–30 วัน', '1–30 days'],
  ['collection.d31_60', 'เกิน 31–60 วัน', '31–60 days'],
  ['collection.d61_90', 'เกิน 61–90 วัน', '61–90 days'],
  ['collection.over_90', 'เกิน 90 วัน', 'Over 90 days'],
  ['collection.total', 'รวมทั้งสิ้น', 'Total'],
  ['collection.empty', 'ไม่มีใบวางบิลในช่วงนี้', 'No billing notes in this period'],
  ['portal.pdf_title', 'สำเนาใบวางบิล (PDF)', 'Billing note copy (PDF)'],
  ['portal.pdf_note', 'สำเนาสำหรับดูเท่านั้น ไม่ใช่การพิมพ์เอกสาร', 'A copy for viewing only; it is not a printed document'],
  ['portal.pdf_loading', 'กำลังเตรียมสำเนา PDF…', 'Preparing the PDF copy…'],
  ['collection.ageing_note', 'อายุหนี้นับจากวันครบกำหนดถึงวันสุดท้ายของช่วง', 'Ageing counts from the due date to the last day of the period'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
// deep merge without overwriting: the server's language content, if already loaded, wins
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);

export const FINANCE_TEXT_KEYS = ROWS.map((r) => r[0]);
