/**
 * The words a person reads for each error, in Thai and English. Server and web
 * render from here, so an error code or validation keyword says the same thing
 * in both places. tests/api/error-texts.test.ts fails when a code has no Thai text.
 *
 * Templates take `{name}` parameters. A parameter may be plain text/number or a
 * label object `{ th, en }` (an entity or field label), rendered in the reader's
 * language. A text may have a `detailed` variant, used only when every
 * parameter it names is given (the server does not always know the entity).
 *
 * To add a text: add the catalogue code (or `CODE.reason`) to ERROR_TEXTS, or a
 * field-level code to FIELD_TEXTS, with both languages.
 */
import type { ErrorCode, FieldError } from './error-catalogue.ts';

export type TextLang = 'th' | 'en';
export interface Text { th: string; en: string }
export interface ErrorText extends Text { detailed?: Text }
export type LabelText = { th: string; en: string };
export type TextParams = Record<string, string | number | LabelText | null | undefined>;

/** Messages for `error.code`; `CODE.reason` keys are chosen by `params.reason`. */
export const ERROR_TEXTS: Record<ErrorCode, ErrorText> & Record<string, ErrorText> = {
  BAD_REQUEST: { th: 'ระบบอ่านคำขอนี้ไม่ได้', en: 'The request could not be read' },
  'BAD_REQUEST.idempotency_key': { th: 'ต้องส่งหัวข้อ Idempotency-Key (ตัวอักษรอังกฤษ ตัวเลข และ - _ . : ยาว 8 ถึง 100 ตัว) เพื่อป้องกันการบันทึกการขายซ้ำ', en: 'Send an Idempotency-Key header (8 to 100 letters, digits, - _ . :) so that a sale is stored once' },
  'BAD_REQUEST.token_mismatch': { th: 'คำขอส่งโทเคนสองค่าที่ไม่ตรงกัน (Authorization และ x-access-token) กรุณาส่งโทเคนเดียว', en: 'Authorization and x-access-token carry different tokens; send one token' },
  VALIDATION_FAILED: { th: 'ข้อมูลบางช่องไม่ถูกต้อง', en: 'Some fields are not valid' },
  UNKNOWN_FIELD: { th: 'คำขอระบุช่องข้อมูลที่ไม่มีอยู่', en: 'The request names a field that does not exist' },
  READ_ONLY_FIELD: { th: 'คำขอพยายามแก้ไขช่องข้อมูลที่แก้ไขไม่ได้', en: 'The request tries to write a field that cannot be written' },
  INVALID_FILTER: { th: 'เงื่อนไขการกรองไม่ถูกต้อง', en: 'The filter is not valid' },
  INVALID_QUERY: { th: 'เงื่อนไขการค้นหาไม่ถูกต้อง', en: 'The query string is not valid' },
  'INVALID_QUERY.report_parameter': { th: 'ค่า {parameter} ไม่ถูกต้อง ต้องเป็น{expected}', en: '{parameter} is not valid: it must be {expected}' },
  'INVALID_QUERY.report_parameter_unknown': { th: 'รายงานนี้ไม่มีตัวกรอง {parameter}', en: 'This report takes no parameter {parameter}' },
  'INVALID_QUERY.report_parameter_required': { th: 'กรุณาระบุ {parameter}', en: 'Give {parameter}' },
  'INVALID_QUERY.report_date_order': { th: 'วันที่เริ่มต้นต้องไม่อยู่หลังวันที่สิ้นสุด', en: 'The start date must not be after the end date' },
  'INVALID_QUERY.report_paging': { th: 'ค่า {parameter} ต้องเป็นจำนวนเต็มตั้งแต่ 1 ถึง {max}', en: '{parameter} must be a whole number from 1 to {max}' },
  'INVALID_QUERY.report_sort': { th: 'เรียงลำดับได้เฉพาะคอลัมน์ของรายงานนี้', en: 'Sort only by a column of this report' },
  UNAUTHORIZED: { th: 'กรุณาเข้าสู่ระบบเพื่อดำเนินการต่อ', en: 'Sign in to continue' },
  'UNAUTHORIZED.bad_credentials': { th: 'ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง', en: 'Incorrect username or password' },
  'UNAUTHORIZED.expired': { th: 'เซสชันหมดอายุ กรุณาเข้าสู่ระบบใหม่', en: 'Your session has expired; sign in again' },
  'UNAUTHORIZED.ended': { th: 'เซสชันนี้สิ้นสุดแล้ว กรุณาเข้าสู่ระบบใหม่', en: 'This session has ended; sign in again' },
  FORBIDDEN: { th: 'คุณไม่มีสิทธิ์ทำรายการนี้', en: 'You do not have permission to do this' },
  'FORBIDDEN.builtin_role': { th: 'บทบาทลูกค้าที่มากับระบบแก้ไขหรือลบไม่ได้', en: 'The built-in Customer role cannot be changed or deleted' },
  'FORBIDDEN.own_role': { th: 'ไม่มีใครแก้ไขสิทธิ์ของบทบาทของตัวเองได้', en: 'Nobody can change the permissions of their own role' },
  'FORBIDDEN.own_user_type': { th: 'ไม่มีใครแก้ไขประเภทผู้ใช้ที่ใช้กับตัวเองได้', en: 'Nobody can change the user type that applies to themselves' },
  'FORBIDDEN.supervisor_pin': { th: 'ชื่อผู้อนุมัติหรือรหัส PIN ไม่ถูกต้อง หรือผู้อนุมัติไม่มีสิทธิ์อนุมัติรายการนี้', en: 'The supervisor\'s name or PIN is wrong, or the supervisor may not approve this' },
  'FORBIDDEN.supervisor_needed': { th: 'รายการนี้ต้องให้หัวหน้าอนุมัติด้วยรหัส PIN', en: 'This needs a supervisor\'s approval with their PIN' },
  'FORBIDDEN.own_account': { th: 'ลบบัญชีของตัวเองไม่ได้', en: 'You cannot delete your own account' },
  'FORBIDDEN.other_accounts': { th: 'บทบาทของคุณแก้ไขบัญชีผู้ใช้อื่นไม่ได้', en: 'Your role may not edit other user accounts' },
  'FORBIDDEN.customer_scope': { th: 'บัญชีลูกค้าใช้ได้เฉพาะข้อมูลของลูกค้าตนเอง', en: 'A customer account can only work with its own customer records' },
  'FORBIDDEN.inventory_scope': { th: 'คุณใช้ได้เฉพาะคลังที่ได้รับอนุญาต', en: 'You may only use your allowed inventories' },
  'FORBIDDEN.company_scope': { th: 'คุณใช้ได้เฉพาะบริษัทที่ได้รับอนุญาต', en: 'You may only use your allowed companies' },
  'FORBIDDEN.holds_more': { th: 'รายการนี้มีสิทธิ์มากกว่าของคุณ จึงแก้ไขไม่ได้', en: 'This holds more rights than you do, so you cannot change it' },
  'FORBIDDEN.admin_only': { th: 'เฉพาะผู้ดูแลระบบเต็มสิทธิ์เท่านั้นที่กำหนดบทบาทผู้ดูแลระบบได้', en: 'Only a full administrator can give an account the Administrator role' },
  'FORBIDDEN.grant_exceeds': { th: 'ให้สิทธิ์เกินกว่าที่ตัวเองมีไม่ได้', en: 'You cannot grant more than you hold yourself' },
  'FORBIDDEN.report': { th: 'บทบาทของคุณไม่มีสิทธิ์{action}รายงาน {report}', en: 'Your role may not {action} the report {report}' },
  'FORBIDDEN.last_admin': { th: 'นี่คือผู้ดูแลระบบคนสุดท้ายที่ใช้งานอยู่ ให้กำหนดผู้ดูแลระบบคนอื่นก่อน', en: 'This is the last active administrator: make another account an administrator first' },
  FIELD_FORBIDDEN: { th: 'คุณไม่มีสิทธิ์อ่านหรือแก้ไขช่องข้อมูลนี้', en: 'You may not read or write that field' },
  NOT_FOUND: {
    th: 'ไม่พบข้อมูลที่ต้องการ', en: 'Not found',
    detailed: { th: 'ไม่พบ{entity} {id} หรือคุณไม่มีสิทธิ์ดู', en: '{entity} {id} does not exist or you cannot see it' },
  },
  ETAX_NOT_SUPPORTED: {
    th: 'เอกสารประเภทนี้ไม่อยู่ในมาตรฐาน e-Tax Invoice & e-Receipt ของ สพธอ. จึงส่งออกเป็น e-Tax ไม่ได้', en: 'This type of document is not covered by the ETDA e-Tax Invoice & e-Receipt standard',
    detailed: { th: '{why}', en: '{why}' },
  },
  ETAX_INCOMPLETE: {
    th: 'เอกสารนี้ยังขาดข้อมูลที่มาตรฐาน e-Tax กำหนด จึงยังส่งออกเป็น e-Tax ไม่ได้', en: 'This document lacks what the e-Tax standard requires, so it cannot be exported as e-Tax yet',
    detailed: { th: '{why}', en: '{why}' },
  },
  'NOT_FOUND.customer_page': { th: 'ไม่มีหน้าลูกค้านี้', en: 'There is no such customer page' },
  'NOT_FOUND.promptpay_id': {
    th: 'บริษัทผู้ออกเอกสารยังไม่ได้ตั้งค่าพร้อมเพย์ ให้ผู้ดูแลระบบกรอกเลขพร้อมเพย์ในหน้าบริษัทของเรา',
    en: 'The issuing company has no PromptPay id: an administrator enters it on the Our company screen',
  },
  METHOD_NOT_ALLOWED: { th: 'ทำรายการนี้ที่นี่ไม่ได้', en: 'This action is not available here' },
  CONFLICT: {
    th: 'ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว', en: 'The value is already used by another record',
    detailed: { th: 'มี{entity}อื่นใช้{fields}นี้แล้ว', en: 'Another {entity} already has this {fields}' },
  },
  'CONFLICT.wht_voucher_taken': { th: 'ใบสำคัญจ่าย {voucher} มีหนังสือรับรอง 50 ทวิ แล้ว ({certificate}) ให้ยกเลิกฉบับเดิมก่อน', en: 'Payment voucher {voucher} has a 50 Tawi certificate already ({certificate}): cancel that one first' },
  'CONFLICT.nothing_due': { th: 'เอกสารนี้ไม่มียอดค้างชำระ จึงไม่มี QR พร้อมเพย์', en: 'Nothing is due on this document, so it has no PromptPay QR' },
  IN_USE: {
    th: 'ข้อมูลนี้ยังถูกใช้อยู่ในข้อมูลอื่น จึงลบไม่ได้', en: 'The record is still used by other records',
    detailed: { th: '{entity}นี้ยังถูกใช้อยู่ในข้อมูลอื่น จึงลบไม่ได้ ให้ยกเลิกการใช้งานหรือลบข้อมูลที่อ้างถึงก่อน', en: 'This {entity} is still used by other records, so it cannot be removed; archive it or remove those records first' },
  },
  'IN_USE.products': {
    th: 'ยังมีสินค้า {count} รายการใช้ข้อมูลนี้อยู่ จึงลบไม่ได้', en: '{count} product(s) still use this record, so it cannot be removed',
    detailed: { th: 'ยังมีสินค้า {count} รายการใช้{entity}นี้อยู่ จึงลบไม่ได้ ให้นำออกจากสินค้าเหล่านั้นก่อน', en: '{count} product(s) still use this {entity}; remove it from them first' },
  },
  INVALID_TRANSITION: { th: 'ทำรายการนี้กับเอกสารในสถานะปัจจุบันไม่ได้', en: 'This action cannot be taken in the record\'s current state' },
  INSUFFICIENT_STOCK: {
    th: 'สินค้าในคลังไม่พอ', en: 'Not enough stock',
    detailed: { th: 'สินค้า {product} ในคลัง {inventory} ไม่พอ ขาดอยู่ {shortfall}', en: 'Not enough {product} in {inventory}: {shortfall} short' },
  },
  OVER_PROCESSED: { th: 'จำนวนเกินกว่าที่เหลืออยู่ในเอกสารต้นทาง', en: 'More than what is left of the source document' },
  PERIOD_CLOSED: {
    th: 'ปิดงวดบัญชีแล้ว เอกสารที่ลงวันที่ในงวดที่ปิดแล้วออก ผ่านรายการ ยกเลิก หรือแก้ไขไม่ได้', en: 'The books are closed for this date: the document can no longer be issued, posted, cancelled or amended',
    detailed: { th: '{entity} {number} ลงวันที่ {date} ซึ่งอยู่ในงวดบัญชีที่ปิดแล้ว (ปิดถึงวันที่ {closed}) จึงออก ผ่านรายการ ยกเลิก หรือแก้ไขไม่ได้', en: '{entity} {number} is dated {date}, in books closed until {closed}: it can no longer be issued, posted, cancelled or amended' },
  },
  JOURNAL_UNBALANCED: {
    th: 'ยอดเดบิตและเครดิตไม่เท่ากัน', en: 'Debits and credits are not equal',
    detailed: { th: 'ยอดเดบิต {debit} และเครดิต {credit} ต่างกัน {difference} บาท ยอดเดบิตต้องเท่ากับยอดเครดิต ให้แก้จำนวนเงินในรายการก่อนผ่านรายการ', en: 'Debits {debit} and credits {credit} differ by {difference}: they must be equal; correct the lines before posting' },
  },
  JOURNAL_LINE_INVALID: { th: 'รายการบัญชีไม่ถูกต้อง', en: 'A journal line is not valid' },
  'JOURNAL_LINE_INVALID.one_side': { th: 'รายการที่ {line} ต้องมีเดบิตหรือเครดิตอย่างใดอย่างหนึ่ง ไม่ใช่ทั้งสองหรือไม่มีเลย', en: 'Line {line} must have a debit or a credit, not both and not neither' },
  'JOURNAL_LINE_INVALID.negative': { th: 'รายการที่ {line} มีจำนวนเงินติดลบ ให้บันทึกเป็นจำนวนบวกอีกด้านหนึ่งแทน', en: 'Line {line} has a negative amount; enter it as a positive amount on the other side' },
  'JOURNAL_LINE_INVALID.group_account': { th: 'รายการที่ {line}: บัญชี {account} เป็นบัญชีคุม ลงรายการไม่ได้ ให้เลือกบัญชีย่อยภายใต้บัญชีนี้', en: 'Line {line}: account {account} is a heading, which is not posted to; choose an account under it' },
  'JOURNAL_LINE_INVALID.closing_journal': { th: 'รายการปิดบัญชีสิ้นปีบันทึกได้จากการปิดบัญชีสิ้นปีเท่านั้น ให้เลือกสมุดรายวันอื่น', en: 'The year-end closing journal takes only the entry written by closing the year; choose another journal' },
  'JOURNAL_LINE_INVALID.too_few': { th: 'สมุดรายวันต้องมีอย่างน้อยสองรายการ คือด้านเดบิตและด้านเครดิต', en: 'An entry needs at least two lines, a debit and a credit' },
  JOURNAL_AUTOMATIC: {
    th: 'รายการบัญชีที่ระบบบันทึกจากเอกสารแก้ไขหรือลบไม่ได้ ให้ยกเลิกเอกสารต้นทางเพื่อกลับรายการ', en: 'An entry written from a document cannot be changed or deleted; cancel the document to reverse it',
    detailed: { th: 'รายการบัญชี {number} บันทึกจากเอกสาร {source} แก้ไขหรือลบไม่ได้ ให้ยกเลิกเอกสาร {source} เพื่อกลับรายการ', en: 'Entry {number} was written from {source}: it cannot be changed or deleted; cancel {source} to reverse it' },
  },
  'JOURNAL_AUTOMATIC.posted': { th: 'สมุดรายวัน {number} ผ่านรายการแล้ว แก้ไขหรือลบไม่ได้ ให้บันทึกรายการกลับด้วยใบสำคัญใหม่', en: 'Entry {number} is posted: it cannot be changed or deleted; reverse it with a new voucher' },
  ACCOUNT_ROLE_MISSING: {
    th: 'ผังบัญชียังไม่มีบัญชีที่ใช้ลงรายการนี้', en: 'No account of the chart has the role this posting needs',
    detailed: { th: 'ผังบัญชียังไม่มีบัญชีที่มีหน้าที่ "{role}" ให้กำหนดหน้าที่นี้ให้บัญชีหนึ่งในผังบัญชี แล้วทำรายการอีกครั้ง', en: 'No account of the chart has the role "{role}": give that role to an account and try again' },
  },
  YEAR_CLOSE_REFUSED: { th: 'ปิดบัญชีสิ้นปีนี้ไม่ได้', en: 'This year cannot be closed' },
  'YEAR_CLOSE_REFUSED.already_closed': { th: 'ปิดบัญชีปี {year} ไปแล้ว (สมุดรายวัน {number}) ปิดซ้ำไม่ได้', en: '{year} is closed already (entry {number}); it cannot be closed twice' },
  'YEAR_CLOSE_REFUSED.earlier_year_open': { th: 'ยังมียอดรายได้หรือค่าใช้จ่ายของปีก่อน {year} ที่ยังไม่ได้ปิดบัญชี ให้ปิดบัญชีปีก่อนหน้าก่อน', en: 'A year before {year} still has income or expense balances; close that year first' },
  'YEAR_CLOSE_REFUSED.not_ended': { th: 'ปี {year} ยังไม่สิ้นสุด (วันนี้คือ {today}) ปิดบัญชีได้หลังวันสุดท้ายของปี', en: '{year} has not ended yet (today is {today}); a year is closed after its last day' },
  HAS_DEPENDENTS: {
    th: 'ยกเลิกไม่ได้ เพราะมีเอกสารที่ทำต่อจากเอกสารนี้และยังไม่ได้ยกเลิก ให้ยกเลิกเอกสารเหล่านั้นก่อน', en: 'Documents made from this one are still live; cancel them first',
    detailed: { th: 'ยกเลิก{entity} {number} ไม่ได้ เพราะมีเอกสารที่ทำต่อจากเอกสารนี้และยังไม่ได้ยกเลิก: {dependents} ให้ยกเลิกเอกสารเหล่านั้นก่อน', en: '{entity} {number} cannot be cancelled: documents made from it are still live ({dependents}); cancel them first' },
  },
  ALREADY_TAX_INVOICED: {
    th: 'การขายนี้มีใบกำกับภาษีแล้ว ออกใบกำกับภาษีซ้ำสำหรับสินค้าหรือบริการเดียวกันไม่ได้', en: 'This sale already has a tax invoice; a second one for the same goods cannot be issued',
    detailed: { th: 'การขายนี้มีใบกำกับภาษีแล้ว: ใบเสร็จรับเงิน/ใบกำกับภาษี {number} ออกใบกำกับภาษีซ้ำสำหรับสินค้าหรือบริการเดียวกันไม่ได้ (มาตรา 86/13)', en: 'This sale already has a tax invoice: receipt/tax invoice {number}; a second one for the same goods cannot be issued (s. 86/13)' },
  },
  NOTE_WITHOUT_INVOICE: { th: 'ใบลดหนี้หรือใบเพิ่มหนี้ต้องสร้างจากใบกำกับภาษีที่ออกแล้วหนึ่งใบ', en: 'A credit or debit note must be made from one issued tax invoice' },
  'NOTE_WITHOUT_INVOICE.none': {
    th: 'ออก{entity}ไม่ได้ เพราะไม่ได้อ้างอิงใบกำกับภาษี ให้สร้างจากใบกำกับภาษีที่ออกแล้ว (มาตรา 86/9, 86/10)', en: 'The {entity} names no tax invoice; make it from an issued tax invoice (s. 86/9, 86/10)',
  },
  'NOTE_WITHOUT_INVOICE.several': {
    th: 'ออก{entity}ไม่ได้ เพราะรายการมาจากใบกำกับภาษี {count} ใบ เอกสารหนึ่งใบแก้ไขใบกำกับภาษีได้ใบเดียว', en: 'The {entity}\'s lines come from {count} tax invoices; one note corrects one tax invoice',
  },
  FEATURE_DISABLED: {
    th: 'ฟังก์ชันนี้ปิดใช้งานอยู่ในการตั้งค่าระบบ', en: 'This feature is switched off in the site settings',
    detailed: { th: '{feature} ปิดใช้งานอยู่ ผู้ดูแลระบบเปิดได้ที่การตั้งค่าระบบ ({setting})', en: '{feature} is switched off; an administrator can switch it on in the site settings ({setting})' },
  },
  SCAN_OVER: {
    th: 'สแกนเกินจำนวนในเอกสาร ระบบบันทึกเป็นรายการสแกนเกินไว้แล้ว', en: 'More than the document asks for: recorded as an over-scan',
    detailed: { th: 'สแกน {product} เกินจำนวนในเอกสาร (ต้องการ {wanted} สแกนแล้ว {scanned}) ระบบบันทึกเป็นรายการสแกนเกินไว้แล้ว', en: '{product}: the document asks for {wanted}, {scanned} already scanned; recorded as an over-scan' },
  },
  SCAN_REFUSED: { th: 'ใช้บาร์โค้ดนี้กับเอกสารนี้ไม่ได้', en: 'This barcode cannot be used on this document' },
  'SCAN_REFUSED.unknown_code': { th: 'ไม่พบบาร์โค้ดนี้ในระบบ', en: 'No barcode with this code exists' },
  'SCAN_REFUSED.not_in_document': { th: 'สินค้าของบาร์โค้ดนี้ไม่มีในเอกสาร', en: 'The barcode\'s product is not on this document' },
  'SCAN_REFUSED.already_used': { th: 'บาร์โค้ดนี้ถูกสแกนไปแล้ว', en: 'This barcode has already been scanned' },
  'SCAN_REFUSED.older_lot': { th: 'ยังมีล็อตที่หมดอายุก่อนอยู่ในคลัง ต้องสแกนล็อตที่หมดอายุก่อน (FEFO)', en: 'An earlier-expiring lot is still in stock; scan that one first (FEFO)' },
  'SCAN_REFUSED.not_draft': { th: 'สแกนได้เฉพาะเอกสารที่เป็นร่าง', en: 'Only a draft document can be scanned into' },
  DOCUMENT_LOCKED: { th: 'เอกสารนี้ผ่านรายการแล้ว แก้ไขไม่ได้ ให้ยกเลิกแล้วทำฉบับแก้ไขแทน', en: 'The record is posted and can no longer be changed; cancel it and amend' },
  BACKUP_INVALID: { th: 'ไฟล์สำรองข้อมูลเสียหายหรือไม่ใช่ไฟล์สำรองของระบบนี้', en: 'The backup file is damaged or is not a backup of this product' },
  BACKUP_TOO_NEW: { th: 'ไฟล์สำรองข้อมูลมาจากระบบรุ่นใหม่กว่า จึงกู้คืนไม่ได้', en: 'The backup comes from a newer version of the product and cannot be restored' },
  WRITES_PAUSED: { th: 'ระบบกำลังกู้คืนข้อมูล งดบันทึกชั่วคราว กรุณาลองใหม่อีกสักครู่', en: 'A restore is running and writes are paused; try again shortly' },
  DATABASE_BUSY: { th: 'ฐานข้อมูลกำลังบันทึกงานอื่นอยู่ ระบบยังไม่ได้บันทึกการเปลี่ยนแปลงนี้ กรุณาลองใหม่อีกครั้งในอีกสักครู่', en: 'The database is busy with another save; nothing was saved, try again in a moment' },
  MAIL_NOT_CONFIGURED: { th: 'เซิร์ฟเวอร์ยังไม่ได้ตั้งค่าการส่งอีเมล (SMTP_URL และ MAIL_FROM) หรือติดต่อเซิร์ฟเวอร์อีเมลไม่ได้ ยังไม่ได้ส่งอีเมลฉบับนี้', en: 'Email is not set up on this server (SMTP_URL and MAIL_FROM), or the mail server could not be reached or refused the message; nothing was sent' },
  DATABASE_UNAVAILABLE: { th: 'ติดต่อฐานข้อมูลไม่ได้ชั่วคราว ระบบยังไม่ได้บันทึกการเปลี่ยนแปลงนี้ กรุณาลองใหม่อีกครั้งในอีกสักครู่', en: 'The database cannot be reached right now; nothing was saved, try again in a moment' },
  DATABASE_TIMEOUT: { th: 'ฐานข้อมูลใช้เวลานานเกินกำหนดหรือรอข้อมูลที่งานอื่นกำลังแก้ไขอยู่นานเกินไป ระบบยังไม่ได้บันทึกการเปลี่ยนแปลงนี้ กรุณาลองใหม่อีกครั้งในอีกสักครู่', en: 'The database took too long, or waited too long for a record another save holds; nothing was saved, try again in a moment' },
  IMPORT_PROGRESS_UNAVAILABLE: { th: 'ขณะนี้อ่านความคืบหน้าของการนำเข้าไม่ได้ การนำเข้ายังทำงานต่อ กรุณาลองดูใหม่อีกสักครู่', en: 'The progress of this import cannot be read right now; the import goes on, look again in a moment' },
  FILE_STORAGE_UNAVAILABLE: { th: 'ติดต่อที่เก็บไฟล์ไม่ได้ชั่วคราว ระบบยังไม่ได้บันทึกไฟล์นี้ กรุณาลองใหม่อีกครั้งในอีกสักครู่', en: 'The file storage cannot be reached right now; nothing was saved, try again in a moment' },
  STORAGE_FULL: { th: 'พื้นที่จัดเก็บของเซิร์ฟเวอร์เต็ม ระบบยังไม่ได้บันทึกไฟล์นี้ กรุณาแจ้งผู้ดูแลระบบ', en: 'The server\'s disk is full; nothing was saved, tell the administrator' },
  PAYLOAD_TOO_LARGE: { th: 'ข้อมูลที่ส่งมีขนาดใหญ่เกินไป', en: 'The request is too large' },
  UNSUPPORTED_MEDIA_TYPE: { th: 'ไม่รองรับรูปแบบข้อมูลหรือไฟล์ที่ส่งมา', en: 'The request body must be JSON' },
  RATE_LIMITED: {
    th: 'พยายามหลายครั้งเกินไป กรุณารอสักครู่แล้วลองใหม่', en: 'Too many attempts; wait and try again',
    detailed: { th: 'เข้าสู่ระบบไม่สำเร็จหลายครั้งเกินไป กรุณาลองใหม่ในอีก {minutes} นาที', en: 'Too many failed sign-in attempts; try again in {minutes} minute(s)' },
  },
  // not an API answer: the browser got no response at all. The spec fixes these words in every language.
  NO_RESPONSE: { th: 'Cannot connect to the server', en: 'Cannot connect to the server' },
  INTERNAL_ERROR: { th: 'เกิดข้อผิดพลาดที่เซิร์ฟเวอร์ ระบบยังไม่ได้บันทึกการเปลี่ยนแปลง', en: 'Something went wrong on the server; the change was not saved' },
};

/**
 * Messages for `details.fields[].code` (validation keywords and the server's own
 * field checks). They read under the field's label, so they do not repeat it.
 */
export const FIELD_TEXTS: Record<string, ErrorText> = {
  required: { th: 'กรุณากรอกข้อมูลช่องนี้', en: 'is required' },
  maxLength: { th: 'ต้องยาวไม่เกิน {limit} ตัวอักษร', en: 'must be at most {limit} characters' },
  minLength: { th: 'ต้องยาวอย่างน้อย {limit} ตัวอักษร', en: 'must be at least {limit} characters' },
  minimum: { th: 'ต้องไม่น้อยกว่า {limit}', en: 'must be at least {limit}' },
  maximum: { th: 'ต้องไม่เกิน {limit}', en: 'must be at most {limit}' },
  pattern: { th: 'รูปแบบไม่ถูกต้อง', en: 'is not in the expected format' },
  enum: { th: 'ต้องเป็นค่าใดค่าหนึ่งต่อไปนี้: {allowed}', en: 'must be one of: {allowed}' },
  'x-scale': { th: 'ทศนิยมได้ไม่เกิน {limit} ตำแหน่ง', en: 'must have at most {limit} decimal places' },
  maxItems: { th: 'มีได้ไม่เกิน {limit} รายการ', en: 'must have at most {limit} lines' },
  unknown_field: { th: 'ไม่ใช่ช่องข้อมูลของรายการนี้', en: 'is not a field of this record' },
  read_only: { th: 'แก้ไขช่องนี้ไม่ได้', en: 'cannot be written' },
  page_setting: { th: 'ตั้งค่านี้กับช่องนี้ไม่ได้', en: 'this setting cannot be used here' },
  nul: { th: 'มีอักขระที่ไม่อนุญาต (NUL)', en: 'must not contain the NUL character' },
  type: { th: 'ชนิดข้อมูลไม่ถูกต้อง', en: 'has the wrong type' },
  'type.string': { th: 'ต้องเป็นข้อความ', en: 'must be text' },
  'type.integer': { th: 'ต้องเป็นจำนวนเต็ม', en: 'must be a whole number' },
  'type.number': { th: 'ต้องเป็นตัวเลข', en: 'must be a number' },
  'type.boolean': { th: 'ต้องเป็นใช่หรือไม่ใช่', en: 'must be true or false' },
  'type.array': { th: 'ต้องเป็นรายการ', en: 'must be a list' },
  'type.object': { th: 'ต้องเป็นออบเจ็กต์ JSON', en: 'must be an object' },
  email: { th: 'อีเมลไม่ถูกต้อง', en: 'is not a valid email' },
  uri: { th: 'URL ไม่ถูกต้อง', en: 'is not a valid URL' },
  date: { th: 'วันที่ไม่ถูกต้อง (ต้องเป็นวันที่มีจริง ปี ค.ศ. 1000 ถึง 9999)', en: 'is not a valid date (YYYY-MM-DD, a real day in the years 1000 to 9999)' },
  'date-time': { th: 'วันที่และเวลาไม่ถูกต้อง', en: 'is not a valid date and time (ISO 8601, years 1000 to 9999)' },
  'thai-tax-id': { th: 'เลขประจำตัวผู้เสียภาษีไม่ถูกต้อง (13 หลัก และหลักตรวจสอบต้องถูกต้อง)', en: 'is not a valid Thai tax ID (13 digits with a correct check digit)' },
  format: { th: 'รูปแบบไม่ถูกต้อง', en: 'is not in the expected format' },
  json: { th: 'JSON ไม่ถูกต้อง', en: 'is not valid JSON' },
  unique: { th: 'ค่านี้ถูกใช้โดยข้อมูลอื่นแล้ว', en: 'is already used by another record' },
  link: { th: 'ไม่พบข้อมูลที่เลือก หรือข้อมูลถูกยกเลิกแล้ว', en: 'points to a record that does not exist' },
  link_filter: {
    th: 'ข้อมูลที่เลือกไม่ตรงกับ{other}ที่เลือกไว้', en: 'does not belong to the chosen {other}',
  },
  line: { th: 'รายการนี้ไม่ได้อยู่ในเอกสารนี้', en: 'does not belong to this record' },
  promptpay_id: {
    th: 'ต้องเป็นเลขประจำตัวผู้เสียภาษี 13 หลักที่ถูกต้อง หรือเบอร์มือถือ 10 หลัก (ขึ้นต้น 06 08 09)',
    en: 'must be a valid 13-digit tax id or a 10-digit mobile number (06, 08, 09)',
  },
  file: { th: 'ไม่ใช่ไฟล์ที่คุณอัปโหลดหรือมีสิทธิ์ดู กรุณาอัปโหลดก่อน', en: 'is not a file you uploaded or may see; upload it first' },
  password: { th: 'รหัสผ่านไม่ถูกต้อง', en: 'is not correct', detailed: { th: 'ต้องยาว {min} ถึง {max} ตัวอักษร', en: 'must be {min} to {max} characters' } },
  invalid: { th: 'ไม่ถูกต้อง', en: 'is not valid' },
  inventory: { th: 'ตำแหน่งนี้ไม่ได้อยู่ในคลังที่เลือก', en: 'is a location of another inventory' },
  max_items: { th: 'มีได้ไม่เกิน {limit} รายการ', en: 'must have at most {limit} items' },
  max_length: { th: 'ยาวเกินกำหนด', en: 'is too long' },
  decimal: { th: 'ตัวเลขไม่ถูกต้อง', en: 'is not a valid number here' },
  forbidden: { th: 'คุณไม่มีสิทธิ์แก้ไขช่องนี้', en: 'you may not change this field' },
  locked: { th: 'แก้ไขไม่ได้เมื่อเอกสารผ่านรายการแล้ว', en: 'cannot be changed once the document is posted' },
  repeated: { th: 'ซ้ำกับแถวที่ {row} ในไฟล์', en: 'repeats row {row} of the file' },
  duplicate: { th: 'สินค้านี้มีอยู่แล้วในรายการก่อนหน้า', en: 'is already on another line of this document' },
  single_inventory: { th: 'ระบบตั้งค่าให้รับสินค้าเข้าคลังเดียวต่อเอกสาร ให้ระบุคลังที่หัวเอกสาร', en: 'one inventory per goods receipt: set it on the header (site setting is_select_multi_inventory_gr is off)' },
  positive: { th: 'ต้องมากกว่า 0', en: 'must be more than 0' },
  min_items: { th: 'ต้องมีอย่างน้อย {limit} รายการ', en: 'must have at least {limit} items' },
  shift_not_open: { th: 'กะนี้ปิดแล้ว กรุณาเปิดกะใหม่ก่อนขาย', en: 'is not an open shift: open a shift first' },
  shift_already_open: { th: 'เครื่อง POS นี้มีกะที่เปิดอยู่แล้ว กรุณาปิดกะเดิมก่อน', en: 'already has an open shift: close it first' },
  over_returned: { th: 'คืนเกินจำนวนที่เหลือให้คืน (เหลือ {left})', en: 'is more than is left to return ({left})' },
  no_price: { th: 'สินค้านี้ยังไม่มีราคาขาย กรุณากำหนดราคาในข้อมูลสินค้า', en: 'has no selling price: set the product\'s price first' },
  over_drawer: { th: 'จำนวนเงินมากกว่าเงินสดที่ควรมีในลิ้นชัก ({cash} บาท)', en: 'is more than the drawer should hold ({cash})' },
  pin_format: { th: 'รหัส PIN ต้องเป็นตัวเลข 4 ถึง 8 หลัก', en: 'must be 4 to 8 digits' },
  reference_required: { th: 'วิธีชำระเงินนี้ต้องระบุเลขอ้างอิง (เลขอนุมัติบัตร หรือเลขที่รายการโอน)', en: 'is required by this payment method (the card\'s approval code, the transfer\'s reference)' },
  underpaid: { th: 'ยอดชำระยังไม่ครบ ขาดอีก {due} บาท', en: 'do not cover the total: {due} baht still due' },
  overpaid_non_cash: { th: 'ชำระด้วยวิธีอื่นนอกจากเงินสดเกินยอดไม่ได้ (ทอนเงินได้เฉพาะเงินสด)', en: 'pay more than the total by other means than cash (only cash gives change)' },
  with_so_only: { th: 'ระบบตั้งค่าให้สร้างใบส่งสินค้าจากใบสั่งขายเท่านั้น', en: 'delivery orders are made from a sales order on this site (do_create_type)' },
  source: { th: 'เอกสารต้นทางของรายการนี้ไม่ถูกต้อง', en: 'has a source document that does not fit' },
  source_header: {
    th: 'เอกสารต้นทางของรายการนี้ไม่ถูกต้อง', en: 'has a source document that does not fit',
    detailed: { th: '{field}ของเอกสารนี้ไม่ตรงกับ {source} ที่อ้างอิง ให้ใช้ค่าเดียวกัน', en: 'this document\'s {field} differs from that of {source}, which it refers to: use the same' },
  },
  custom_field_entity: { th: 'เพิ่มฟิลด์ให้ข้อมูลนี้ไม่ได้ (ไม่มีข้อมูลนี้ หรือเป็นรายการย่อย/สมุดบัญชี)', en: 'cannot take custom fields (no such entity, or a lines or ledger table)' },
  custom_field_options: { th: 'ตัวเลือกไม่ถูกต้อง (ช่องแบบตัวเลือกต้องมีตัวเลือกที่ไม่ซ้ำกันอย่างน้อยหนึ่งค่า)', en: 'are not valid (an enum needs at least one option, each with its own value)' },
  custom_field_type: { th: 'ต้องเป็นชนิด {type} เหมือนเดิม เพราะคอลัมน์และข้อมูลเดิมยังเป็นชนิดนั้น', en: 'must stay {type}: the column and its data keep that type' },
  'x-json': { th: 'ข้อมูล JSON ซ้อนกันลึกหรือใหญ่เกินไป', en: 'is too large or too deeply nested' },
  computed: { th: 'ระบบคำนวณช่องนี้จากรายการ จึงกำหนดเองไม่ได้', en: 'is computed from the lines and cannot be set' },
  issue_date_future: { th: 'วันที่เอกสารภาษีต้องเป็นวันที่ออกเอกสาร จึงลงวันที่ล่วงหน้าไม่ได้ (วันนี้คือ {today})', en: 'must not be later than today ({today}): a tax document is dated the day it is issued' },
  wht_over_limit: { th: 'ภาษีหัก ณ ที่จ่ายต้องไม่เกิน 15% ของยอดก่อน VAT ที่รับชำระ ({base}) คือไม่เกิน {max}', en: 'must not be more than 15 % of the amount settled before VAT ({base}): at most {max}' },
  after_recorded: { th: 'ต้องไม่หลังวันที่บันทึก {recorded} (ภาษีซื้อใช้สิทธิในเดือนที่บันทึก)', en: 'must not be after {recorded}, the date it is recorded on (its VAT is claimed in that month)' },
  claim_window_passed: { th: 'เกิน {months} เดือนนับจากเดือนที่ออกใบกำกับภาษีแล้ว จึงนำภาษีซื้อมาใช้สิทธิในเดือนที่บันทึก ({recorded}) ไม่ได้ (มาตรา 82/3)', en: 'is more than {months} months before {recorded}, the date it is recorded on: its VAT can no longer be claimed (Revenue Code s. 82/3)' },
  before_source: { th: 'ต้องไม่ก่อนวันที่ {date} ของเอกสารต้นทาง {source}', en: 'must not be before {date}, the date of {source} it is made from' },
  issue_date_order: { th: 'ต้องไม่ก่อนวันที่ {last} ของเอกสารเลขที่ {no} ซึ่งออกล่าสุดในชุดเลขเดียวกัน', en: 'must not be earlier than {last}, the date of {no}, the last issued in its series' },
  wht_voucher_tax: { th: 'ภาษีที่หักต้องเท่ากับ {withheld} บาท ตามภาษีหัก ณ ที่จ่ายของใบสำคัญจ่าย {voucher}', en: 'must be {withheld}, the tax withheld on payment voucher {voucher}' },
  wht_voucher_taken: { th: 'ใบสำคัญจ่าย {voucher} มีหนังสือรับรอง 50 ทวิ แล้ว ({certificate}) ให้ยกเลิกฉบับเดิมก่อน', en: 'payment voucher {voucher} has a certificate already ({certificate}): cancel that one first' },
  company_choice: { th: 'มีหลายบริษัทและยังไม่ได้ตั้งบริษัทตั้งต้นในการตั้งค่าระบบ กรุณาเลือกบริษัทผู้ออกเอกสาร', en: 'there are several companies and no default one: choose the company (or set the default in the site settings)' },
};

function pick(v: TextParams[string], lang: TextLang): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'object') return (lang === 'en' ? v.en : v.th) || v.th || v.en || null;
  return String(v);
}

/** Fills `{name}` placeholders; null when a placeholder has no value. */
function fill(template: string, params: TextParams, lang: TextLang): string | null {
  let missing = false;
  const out = template.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = pick(params[k], lang);
    if (v === null) missing = true;
    return v ?? '';
  });
  return missing ? null : out;
}

function render(t: ErrorText, params: TextParams, lang: TextLang): string {
  if (t.detailed) {
    const d = fill(t.detailed[lang], params, lang);
    if (d !== null) return d;
  }
  return fill(t[lang], params, lang) ?? t[lang].replace(/\{\w+\}/g, '').replace(/\s+/g, ' ').trim();
}

/** The text of an error code (and `params.reason`), or null when the code is unknown. */
export function errorText(code: string, params: TextParams | undefined, lang: TextLang): string | null {
  const p = params ?? {};
  const reason = typeof p.reason === 'string' ? ERROR_TEXTS[`${code}.${p.reason}`] : undefined;
  const t = reason ?? ERROR_TEXTS[code];
  return t ? render(t, p, lang) : null;
}

/** The text of one field problem; falls back to the message it came with. */
export function fieldErrorText(e: Pick<FieldError, 'code' | 'message' | 'params'>, lang: TextLang): string {
  const p = e.params ?? {};
  const key = e.code === 'type' && typeof p.type === 'string' && FIELD_TEXTS[`type.${p.type}`] ? `type.${p.type}` : e.code;
  const t = FIELD_TEXTS[key];
  return t ? render(t, p, lang) : e.message;
}

/** Each field problem with its message in `lang`. */
export function localizeFieldErrors(errors: FieldError[], lang: TextLang): FieldError[] {
  return errors.map((e) => ({ ...e, message: fieldErrorText(e, lang) }));
}

/** th when the header's first language is Thai, en when English, else null (keep the server's English). */
export function languageOf(acceptLanguage: string | undefined): TextLang | null {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('th')) return 'th';
  if (first.startsWith('en')) return 'en';
  return null;
}
