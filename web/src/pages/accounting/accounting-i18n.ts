import { i18n } from '../../core/i18n.ts';

/** Texts of the books' screens (the chart as a tree, a document's รายการบัญชี), [key, th, en]; the server's language content may override them. */
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['ledger.journal_title', 'รายการบัญชี', 'Journal entry'],
  ['ledger.open_source', 'เปิดเอกสารต้นทาง {{doc}}', 'Open the source document {{doc}}'],
  ['ledger.reversal', 'กลับรายการ (ยกเลิกเอกสาร)', 'Reversal (document cancelled)'],
  ['ledger.account', 'บัญชี', 'Account'],
  ['ledger.description', 'คำอธิบาย', 'Description'],
  ['ledger.debit', 'เดบิต', 'Debit'],
  ['ledger.credit', 'เครดิต', 'Credit'],
  ['ledger.total', 'รวม', 'Total'],
  ['ledger.tree_title', 'ผังบัญชีพร้อมยอดคงเหลือ', 'Chart of accounts with balances'],
  ['ledger.tree_code', 'รหัสบัญชี', 'Code'],
  ['ledger.tree_name', 'ชื่อบัญชี', 'Account'],
  ['ledger.tree_type', 'หมวด', 'Type'],
  ['ledger.tree_balance', 'ยอดคงเหลือ', 'Closing balance'],
  ['ledger.tree_opening', 'ยอดยกมา', 'Opening balance'],
  ['ledger.tree_movement', 'ยอดเคลื่อนไหวสุทธิ', 'Net movement'],
  ['ledger.tree_line', 'เฉพาะบัญชีของรายการในงบ: {{line}}', 'Only the accounts of the statement line: {{line}}'],
  ['ledger.tree_all', 'แสดงทุกบัญชี', 'Show every account'],
  ['ledger.tree_as_of', 'ยอด ณ วันที่', 'Balance as of'],
  ['ledger.tree_from', 'ตั้งแต่วันที่', 'From'],
  ['ledger.tree_company', 'บริษัท', 'Company'],
  ['ledger.tree_all_companies', 'ทุกบริษัท', 'All companies'],
  ['ledger.tree_hint', 'คลิกบัญชีเพื่อเปิดบัญชีแยกประเภท · ยอดบัญชีคุมรวมจากบัญชีย่อย · เดบิตเป็นบวก เครดิตเป็นลบ', 'Click an account to open its general ledger · headings sum their accounts · debit positive, credit negative'],
  ['ledger.tree_hint_line', 'คลิกบัญชีเพื่อเปิดบัญชีแยกประเภท · แสดงตามด้านของงบ: สินทรัพย์และค่าใช้จ่ายเดบิตเป็นบวก รายได้ หนี้สิน และส่วนของเจ้าของเครดิตเป็นบวก', 'Click an account to open its general ledger · signed as the statement shows them: assets and expenses debit positive, income, liabilities and equity credit positive'],
  ['ledger.tree_without_closing', 'ไม่รวมรายการปิดบัญชีสิ้นปี ตามงบกำไรขาดทุน', 'without the year-end closing entry, as the profit and loss'],
  ['ledger.tree_line_total', 'รวมรายการในงบ', 'Total of the statement line'],
  ['ledger.tree_expand', 'ขยายทั้งหมด', 'Expand all'],
  ['ledger.tree_collapse', 'ย่อทั้งหมด', 'Collapse all'],
  ['ledger.tree_list', 'ดูแบบรายการ', 'As a list'],
  ['ledger.tree_open', 'ดูแบบผังพร้อมยอด', 'As a tree with balances'],
];

const th: Record<string, string> = {};
const en: Record<string, string> = {};
for (const [k, a, b] of ROWS) { th[k] = a; en[k] = b; }
i18n.addResourceBundle('th', 'translation', th, true, false);
i18n.addResourceBundle('en', 'translation', en, true, false);
