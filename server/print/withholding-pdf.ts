import { certificateIncomeRows } from '../../engine/documents/withholding-certificate.ts';
import { bahtText, bahtTextEnglish } from '../../engine/documents/baht-words.ts';
import { parseDecimal } from '../../engine/documents/decimal-value.ts';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { formatDate, formatMoney, type PrintOptions } from './print-format.ts';
import { scriptRuns } from './thai-text.ts';

type Row = Record<string, unknown>;
/** What the certificate needs of a DocumentPrint (document-pdf.ts), without importing it back. */
interface CertificatePrint {
  entity: EntitySchema;
  row: Row;
  links: Record<string, Row | null>;
}

/**
 * The withholding-tax certificate (หนังสือรับรองการหักภาษี ณ ที่จ่าย, 50 ทวิ)
 * in the Revenue Department's form layout (print.layout "wht_50_tawi"): copy
 * 1 and copy 2 each on a page with its printed purpose; payer and payee boxes;
 * the sequence in the PND return with the form ticked; the income rows with
 * date, amount and tax; totals and the tax in words; how the tax was paid; the
 * payer's signature and date. docs/documents.md maps every box to its field.
 */
const W = {
  th: {
    copies: ['ฉบับที่ 1 (สำหรับผู้ถูกหักภาษี ณ ที่จ่าย ใช้แนบพร้อมกับแบบแสดงรายการภาษี)', 'ฉบับที่ 2 (สำหรับผู้ถูกหักภาษี ณ ที่จ่าย เก็บไว้เป็นหลักฐาน)'],
    title: 'หนังสือรับรองการหักภาษี ณ ที่จ่าย', section: 'ตามมาตรา 50 ทวิ แห่งประมวลรัษฎากร', book: 'เล่มที่', no: 'เลขที่',
    payer: 'ผู้มีหน้าที่หักภาษี ณ ที่จ่าย :', payee: 'ผู้ถูกหักภาษี ณ ที่จ่าย :', taxId: 'เลขประจำตัวผู้เสียภาษีอากร (13 หลัก)',
    name: 'ชื่อ', address: 'ที่อยู่', seq: 'ลำดับที่', inForm: 'ในแบบ',
    incomeHead: 'ประเภทเงินได้พึงประเมินที่จ่าย', dateHead: 'วัน เดือน หรือปีภาษี ที่จ่าย', amountHead: 'จำนวนเงินที่จ่าย', taxHead: 'ภาษีที่หัก และนำส่งไว้',
    total: 'รวมเงินที่จ่ายและภาษีที่หักนำส่ง', funds: 'เงินที่จ่ายเข้า', socialSecurity: 'กองทุนประกันสังคม', providentFund: 'กองทุนสำรองเลี้ยงชีพ', baht: 'บาท', words: 'รวมเงินภาษีที่หักนำส่ง (ตัวอักษร)', payerPays: 'ผู้จ่ายเงิน',
    warning: 'คำเตือน ผู้มีหน้าที่ออกหนังสือรับรองการหักภาษี ณ ที่จ่าย ฝ่าฝืนไม่ปฏิบัติตามมาตรา 50 ทวิ แห่งประมวลรัษฎากร ต้องรับโทษทางอาญาตามมาตรา 35 แห่งประมวลรัษฎากร',
    certify: 'ขอรับรองว่าข้อความและตัวเลขดังกล่าวข้างต้นถูกต้องตรงกับความจริงทุกประการ', sign: 'ลงชื่อ', signer: 'ผู้จ่ายเงิน',
    issued: 'วัน เดือน ปี ที่ออกหนังสือรับรองฯ', seal: 'ประทับตรานิติบุคคล (ถ้ามี)',
  },
  en: {
    copies: ['Copy 1 (for the payee, to attach to the tax return)', 'Copy 2 (for the payee, to keep as evidence)'],
    title: 'Withholding tax certificate', section: 'under section 50 bis of the Revenue Code', book: 'Book no.', no: 'No.',
    payer: 'Payer (withholding agent):', payee: 'Payee (taxpayer withheld):', taxId: 'Tax ID (13 digits)',
    name: 'Name', address: 'Address', seq: 'Sequence no.', inForm: 'in form',
    incomeHead: 'Type of assessable income paid', dateHead: 'Date or tax year paid', amountHead: 'Amount paid', taxHead: 'Tax withheld and remitted',
    total: 'Total paid and tax withheld', funds: 'Paid into', socialSecurity: 'the social security fund', providentFund: 'the provident fund', baht: 'baht', words: 'Total tax withheld (in words)', payerPays: 'Tax paid by',
    warning: 'Warning: a person required to issue a withholding tax certificate who fails to comply with section 50 bis of the Revenue Code is liable to criminal penalty under section 35 of the Revenue Code.',
    certify: 'I certify that the statements and figures above are true and correct in every respect.', sign: 'Signed', signer: 'Payer',
    issued: 'Date the certificate is issued', seal: 'Company seal (if any)',
  },
};

const t = (s: string, extra: object = {}) => ({ text: scriptRuns(s), ...extra });
const b = (s: string, extra: object = {}) => ({ text: scriptRuns(s, true), ...extra });

/** A tick box drawn as lines (the Sarabun subsets have no ballot box glyph). */
function box(checked: boolean): object {
  return {
    width: 11,
    canvas: [
      { type: 'rect', x: 0, y: 2, w: 8, h: 8, lineWidth: 0.7 },
      ...(checked ? [{ type: 'polyline', lineWidth: 1.3, points: [{ x: 1.5, y: 6 }, { x: 3.5, y: 8.8 }, { x: 7.5, y: 2.8 }] }] : []),
    ],
  };
}
const ticked = (checked: boolean, label: string) => ({ width: 'auto', columns: [box(checked), t(label, { width: 'auto', noWrap: true })], columnGap: 2 });

function nameOf(r: Row | null | undefined, lang: 'th' | 'en'): string {
  if (!r) return '';
  return String((lang === 'en' ? r.name_en || r.name_th : r.name_th || r.name_en) ?? r.name ?? '');
}
function addressOf(r: Row | null | undefined): string {
  return r ? ['address_line', 'sub_district', 'district', 'province', 'postal_code'].map((k) => r[k]).filter(Boolean).join(' ') : '';
}
const money = (v: number | null) => (v === null ? '' : formatMoney(v));
/** A fund amount on the form's dotted line: the amount, or dots to fill in by hand. */
const fund = (v: unknown) => (v === null || v === undefined || v === '' ? '..................' : formatMoney(v));

function partyBox(label: string, taxId: unknown, party: Row | null | undefined, o: PrintOptions) {
  const w = W[o.lang];
  return {
    stack: [
      { columns: [b(label, { width: '*' }), t(`${w.taxId}  ${String(taxId ?? '')}`, { width: 250 })] },
      t(`${w.name}  ${nameOf(party, o.lang)}`, { margin: [8, 2, 0, 0] }),
      t(`${w.address}  ${addressOf(party)}`, { margin: [8, 2, 0, 0] }),
    ],
  };
}

function certificateCopy(doc: CertificatePrint, o: PrintOptions, copy: 0 | 1, first: boolean): object[] {
  const { entity, row, links } = doc;
  const w = W[o.lang];
  const payer = links.your_company_id ?? null;
  const payee = row.payee_type === 'customer' ? links.customer_id : links.supplier_id;
  const options = (name: string) => entity.fields[name]?.options ?? [];
  const income = certificateIncomeRows(options('income_type'), row);
  const satang = (v: number) => parseDecimal(v, 2, 'tax');
  const words = o.lang === 'th' ? bahtText(satang(income.totalTax)) : bahtTextEnglish(satang(income.totalTax));
  const cell = (s: string, extra: object = {}) => t(s, extra);
  const pnd = options('pnd_form').map((p, i) => ticked(row.pnd_form === p.value, `(${i + 1}) ${p.label[o.lang]}`));
  const conditions = options('payment_condition').map((p, i) => ticked(row.payment_condition === p.value, `(${i + 1}) ${p.label[o.lang]}`));
  const otherCondition = row.payment_condition === 'other' && row.payment_condition_other ? [t(String(row.payment_condition_other), { margin: [60, 2, 0, 0] })] : [];
  const incomeTable = {
    table: {
      headerRows: 1,
      widths: ['*', 78, 78, 78],
      body: [
        [b(w.incomeHead, { alignment: 'center' }), b(w.dateHead, { alignment: 'center' }), b(w.amountHead, { alignment: 'center' }), b(w.taxHead, { alignment: 'center' })],
        ...income.rows.map((r) => [cell(r.label[o.lang]), cell(r.paidDate ? formatDate(r.paidDate, o) : '', { alignment: 'center' }), cell(money(r.amountPaid), { alignment: 'right' }), cell(money(r.taxWithheld), { alignment: 'right' })]),
        [b(w.total, { alignment: 'right', colSpan: 2 }), {}, b(formatMoney(income.totalPaid), { alignment: 'right' }), b(formatMoney(income.totalTax), { alignment: 'right' })],
        [b(w.words, { colSpan: 1 }), t(words, { colSpan: 3, alignment: 'center', fillColor: '#F3F4F6' }), {}, {}],
        // the form's line for a salary certificate: what the employee paid into the social security and provident funds
        [t(`${w.funds} ${w.socialSecurity} ${fund(row.social_security_amount)} ${w.baht}    ${w.providentFund} ${fund(row.provident_fund_amount)} ${w.baht}`, { colSpan: 4 }), {}, {}, {}],
      ],
    },
  };
  const signature = {
    stack: [
      t(w.certify, { alignment: 'center' }),
      t(`${w.sign} ...................................................... ${w.signer}`, { alignment: 'center', margin: [0, 18, 0, 0], noWrap: true }),
      t(`( ${nameOf(payer, o.lang)} )`, { alignment: 'center', margin: [0, 4, 0, 0] }),
      t(formatDate(row.doc_date, o), { alignment: 'center', margin: [0, 4, 0, 0] }),
      t(`(${w.issued})`, { alignment: 'center', fontSize: 8 }),
    ],
  };
  return [
    b(w.copies[copy]!, { alignment: 'right', fontSize: 9, ...(first ? {} : { pageBreak: 'before' }) }),
    {
      columns: [
        { width: 130, text: '' },
        { width: '*', stack: [b(w.title, { fontSize: 15, alignment: 'center', noWrap: true }), t(w.section, { alignment: 'center' })] },
        { width: 130, stack: [t(`${w.book} ${String(row.book_no ?? '')}`), t(`${w.no} ${String(row.doc_no ?? '')}`)], margin: [0, 4, 0, 0] },
      ],
      margin: [0, 4, 0, 6],
    },
    {
      table: {
        widths: ['*'],
        body: [
          [partyBox(w.payer, row.payer_tax_id ?? payer?.tax_id, payer, o)],
          [partyBox(w.payee, row.payee_tax_id ?? payee?.tax_id, payee, o)],
          [{ stack: [
            { columns: [t(`${w.seq}  ${String(row.sequence_no ?? '')}  ${w.inForm}`, { width: 'auto', noWrap: true }), { width: '*', columns: pnd.slice(0, 4), columnGap: 8 }], columnGap: 8 },
            { columns: [{ width: 88, text: '' }, { width: '*', columns: pnd.slice(4), columnGap: 8 }], margin: [0, 2, 0, 0] },
          ] }],
          [incomeTable],
          [{ stack: [{ columns: [b(w.payerPays, { width: 'auto', noWrap: true }), { width: '*', columns: conditions, columnGap: 8 }], columnGap: 8 }, ...otherCondition] }],
          [{ columns: [t(w.warning, { width: 190, fontSize: 8.5 }), { width: '*', ...signature }, { width: 60, stack: [{ canvas: [{ type: 'ellipse', x: 30, y: 26, r1: 26, r2: 26, lineWidth: 0.5, dash: { length: 2 } }] }, t(w.seal, { fontSize: 7, alignment: 'center' })] }], columnGap: 8 }],
        ],
      },
      layout: { paddingTop: () => 5, paddingBottom: () => 5, paddingLeft: () => 6, paddingRight: () => 6 },
    },
  ];
}

/** The 50 ทวิ: copy 1 then copy 2, unless ?copies= asks otherwise (original = copy 1, copy = copy 2). */
export function withholdingDefinition(doc: CertificatePrint, o: PrintOptions): object {
  const copies = (o.copies?.length ? o.copies : ['original', 'copy']).map((c) => (c === 'original' ? 0 : 1) as 0 | 1);
  return {
    pageSize: 'A4',
    pageMargins: [36, 30, 36, 30],
    info: { title: `${W[o.lang].title} ${String(doc.row.doc_no ?? '')}`, producer: 'Thai back office' },
    displayTitle: true,
    defaultStyle: { font: 'SarabunLatin', fontSize: 9.5 },
    content: copies.flatMap((c, i) => certificateCopy(doc, o, c, i === 0)),
  };
}
