import { i18n } from '../../core/i18n.ts';

/** Texts of the attribute pages, [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['attr.code', 'รหัส', 'Code'],
  ['attr.name_th', 'ชื่อ (ไทย)', 'Name (Thai)'],
  ['attr.name_en', 'ชื่อ (อังกฤษ)', 'Name (English)'],
  ['attr.kind', 'ประเภท', 'Kind'],
  ['attr.options', 'ตัวเลือก', 'Options'],
  ['attr.option_count', 'จำนวนตัวเลือก', 'Options'],
  ['attr.product_count', 'จำนวนสินค้าที่ใช้', 'Products using it'],
  ['attr.sort_order', 'ลำดับ', 'Order'],
  ['attr.active', 'ใช้งาน', 'Active'],
  ['attr.add_attribute', 'เพิ่มคุณสมบัติ', 'Add attribute'],
  ['attr.add_option', 'เพิ่มตัวเลือก', 'Add option'],
  ['attr.edit_attribute', 'แก้ไขคุณสมบัติ', 'Edit attribute'],
  ['attr.products', 'สินค้าที่ใช้ตัวเลือกนี้', 'Products with this option'],
  ['attr.no_products', 'ยังไม่มีสินค้าที่ใช้ตัวเลือกนี้', 'No product uses this option yet'],
  ['attr.back', 'กลับ', 'Back'],
  ['attr.assign_hint', 'กำหนดคุณสมบัติให้สินค้าได้ที่แบบฟอร์มสินค้า ส่วน "คุณสมบัติสินค้า"', 'Assign attributes to a product in the product form, section "Attributes"'],
  ['attr.delete_option_confirm', 'ลบตัวเลือกนี้?', 'Delete this option?'],
  ['attr.yes', 'ใช่', 'Yes'],
  ['attr.no', 'ไม่', 'No'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);
