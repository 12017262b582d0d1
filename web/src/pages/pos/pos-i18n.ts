import { i18n } from '../../core/i18n.ts';

/** Texts of the register screen, [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['pos.terminal', 'จุดขาย', 'Terminal'],
  ['pos.no_terminal', 'ยังไม่มีจุดขาย (POS) ที่ใช้งานได้ กรุณาเพิ่มในเมนูจุดขาย', 'No active point of sale: add one under Points of sale'],
  ['pos.open_shift', 'เปิดกะ', 'Open shift'],
  ['pos.opening_cash', 'เงินทอนตั้งต้น (บาท)', 'Opening float (baht)'],
  ['pos.shift', 'กะ', 'Shift'],
  ['pos.close_shift', 'ปิดกะ', 'Close shift'],
  ['pos.counted_cash', 'เงินสดที่นับได้ (บาท)', 'Counted cash (baht)'],
  ['pos.confirm_close', 'ยืนยันปิดกะ', 'Confirm close'],
  ['pos.expected_cash', 'เงินสดที่ควรมี', 'Expected cash'],
  ['pos.difference', 'ส่วนต่าง', 'Difference'],
  ['pos.shift_closed', 'ปิดกะแล้ว', 'Shift closed'],
  ['pos.scan', 'สแกนบาร์โค้ด หรือพิมพ์รหัส/ชื่อสินค้า แล้วกด Enter', 'Scan a barcode or type a code or name, then Enter'],
  ['pos.not_found', 'ไม่พบสินค้า "{{code}}"', 'No product "{{code}}"'],
  ['pos.no_price', 'สินค้า {{code}} ยังไม่มีราคาขาย', 'Product {{code}} has no selling price'],
  ['pos.pick', 'เลือกสินค้า', 'Choose a product'],
  ['pos.cancel_close', 'ยังไม่ปิดกะ กลับไปขาย', 'Not yet, back to selling'],
  ['pos.keys', 'Enter ที่ช่องว่าง = ไปช่องรับเงิน · Enter ที่ช่องรับเงิน = ชำระเงิน · ↓ = เลือกจากรายการที่พบ · Esc = ล้างช่องค้นหา', 'Enter on an empty box = go to payment · Enter in the payment = pay · ↓ = choose from the matches · Esc = clear the search'],
  ['pos.product', 'สินค้า', 'Product'],
  ['pos.qty', 'จำนวน', 'Qty'],
  ['pos.price', 'ราคา', 'Price'],
  ['pos.discount', 'ส่วนลด', 'Discount'],
  ['pos.amount', 'จำนวนเงิน', 'Amount'],
  ['pos.remove', 'ลบ', 'Remove'],
  ['pos.empty', 'ยังไม่มีสินค้าในบิล', 'The bill is empty'],
  ['pos.subtotal', 'รวมเป็นเงิน', 'Subtotal'],
  ['pos.bill_discount', 'ส่วนลดท้ายบิล', 'Bill discount'],
  ['pos.total', 'ยอดสุทธิ (รวม VAT)', 'Total (VAT incl.)'],
  ['pos.vat', 'ภาษีมูลค่าเพิ่มในยอด', 'VAT included'],
  ['pos.vat_exempt', 'สินค้ายกเว้นภาษีมูลค่าเพิ่มในยอด', 'VAT-exempt goods in the total'],
  ['pos.payments', 'การชำระเงิน', 'Payments'],
  ['pos.add_payment', 'เพิ่มวิธีชำระ', 'Add a payment'],
  ['pos.paid', 'รับเงิน', 'Paid'],
  ['pos.due', 'ยังขาด', 'Still due'],
  ['pos.change', 'เงินทอน', 'Change'],
  ['pos.non_cash_over', 'ชำระด้วยวิธีอื่นนอกจากเงินสดเกินยอดไม่ได้', 'Non-cash payments may not exceed the total'],
  ['pos.pay', 'ชำระเงิน', 'Pay'],
  ['pos.sold', 'บันทึกการขายแล้ว เลขที่ {{no}}', 'Sale {{no}} recorded'],
  ['pos.print', 'พิมพ์ใบเสร็จ', 'Print receipt'],
  ['pos.new_sale', 'บิลใหม่', 'New sale'],
  ['pos.promotion', 'โปรโมชั่น', 'Promotion'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);
