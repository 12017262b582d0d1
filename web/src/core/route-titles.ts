/**
 * Fallback titles of the spec routes that are not an entity's own screens, [key, th, en]. The server's
 * language content (GET /api/language/content/website_main) overrides them by detail_key. An entity's
 * list and form are titled by its schema's label (entity.<name>.plural, from the same content), so no
 * entity needs a title here; the few left are words fixed screens use (the portal's bills, the account's
 * customer, stock movements among the report titles).
 */
export const ROUTE_TITLES: ReadonlyArray<readonly [string, string, string]> = [
  ['home', 'หน้าหลัก', 'Home'],
  ['signin', 'เข้าสู่ระบบ', 'Sign in'],
  ['signin_customer', 'เข้าสู่ระบบสำหรับลูกค้า', 'Customer sign in'],
  ['customer_bill', 'ใบวางบิลของฉัน', 'My billing notes'],
  ['account_edit', 'แก้ไขบัญชีของฉัน', 'My account'],
  ['user_account', 'บัญชีผู้ใช้', 'User accounts'],
  ['user_role', 'บทบาทผู้ใช้', 'User roles'],
  ['user_type', 'ประเภทผู้ใช้', 'User types'],
  ['billing_note', 'ใบวางบิล', 'Billing notes'],
  ['receipt_datatable', 'ตารางใบเสร็จรับเงิน', 'Receipt table'],
  ['credit_note_datatable', 'ตารางใบลดหนี้', 'Credit note table'],
  ['debit_note_datatable', 'ตารางใบเพิ่มหนี้', 'Debit note table'],
  ['collection_summary', 'สรุปการเก็บเงิน', 'Collection summary'],
  ['pos_register', 'หน้าขาย (POS)', 'POS register'],
  ['attachment', 'ไฟล์แนบ', 'Attachments'],
  ['view_alert', 'ดูการแจ้งเตือน', 'View alert'],
  ['product_import', 'นำเข้าสินค้า', 'Import products'],
  ['outgoing', 'สินค้าออก', 'Outgoing'],
  ['incoming', 'สินค้าเข้า', 'Incoming'],
  ['film_type', 'ประเภทฟิล์ม', 'Film types'],
  ['brand', 'แบรนด์', 'Brands'],
  ['grade', 'เกรด', 'Grades'],
  ['attr_1', 'คุณสมบัติ 1', 'Attribute 1'],
  ['attr_2', 'คุณสมบัติ 2', 'Attribute 2'],
  ['attribute', 'คุณสมบัติ', 'Attributes'],
  ['attribute_option', 'ตัวเลือกคุณสมบัติ', 'Attribute options'],
  ['customer', 'ลูกค้า', 'Customers'],
  ['page_setting', 'ตั้งค่าหน้าจอ', 'Page settings'],
  ['stock_movement', 'ความเคลื่อนไหวสต็อก', 'Stock movements'],
  ['system_log', 'บันทึกระบบ', 'System log'],
  ['db_manage', 'จัดการฐานข้อมูล', 'Database management'],
  ['custom_field', 'ฟิลด์ที่เพิ่มเอง', 'Custom fields'],
  ['loading', 'กำลังโหลด', 'Loading'],
  ['testuplaod', 'ทดสอบอัปโหลด', 'Upload test'],
  ['test_com_socket', 'ทดสอบการเชื่อมต่อซ็อกเก็ต', 'Socket test'],
  ['test_com_serial', 'ทดสอบพอร์ตอนุกรม', 'Serial port test'],
];
