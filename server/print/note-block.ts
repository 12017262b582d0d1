import type { NotePrint } from './note-references.ts';
import { formatDate, formatMoney, type PrintOptions } from './print-format.ts';
import { scriptRuns } from './thai-text.ts';

/**
 * The part of a debit or credit note s. 86/10 of the Revenue Code asks for (issue 47 §1): under the
 * customer, the tax invoice(s) it corrects and the reason; beside the totals, the original value, the
 * correct value, the difference and the VAT on it.
 */
const WORDS = {
  th: {
    refs: 'อ้างอิงใบกำกับภาษีเดิม', no: 'เลขที่', date: 'ลงวันที่', reason: { credit: 'เหตุผลในการลดหนี้', debit: 'เหตุผลในการเพิ่มหนี้' },
    original: 'มูลค่าสินค้า/บริการตามใบกำกับภาษีเดิม', correct: 'มูลค่าที่ถูกต้อง', difference: 'ผลต่าง', vat: 'ภาษีมูลค่าเพิ่มของผลต่าง',
  },
  en: {
    refs: 'Original tax invoice', no: 'No.', date: 'dated', reason: { credit: 'Reason for the credit', debit: 'Reason for the debit' },
    original: 'Value on the original tax invoice', correct: 'Correct value', difference: 'Difference', vat: 'VAT on the difference',
  },
};

const text = (s: string, extra: object = {}) => ({ text: scriptRuns(s), ...extra });
const bold = (s: string, extra: object = {}) => ({ text: scriptRuns(s, true), ...extra });

export function noteReferenceBlock(note: NotePrint, o: PrintOptions): object {
  const w = WORDS[o.lang];
  const refs = note.references.map((r) => `${w.no} ${r.number} ${w.date} ${formatDate(r.date, o)}`).join(', ');
  return {
    margin: [0, 8, 0, 0],
    table: { widths: ['auto', '*'], body: [[bold(w.refs, { noWrap: true }), text(refs || '-')], [bold(w.reason[note.kind], { noWrap: true }), text(note.reason ?? '-')]] },
    layout: 'noBorders',
  };
}

export function noteValuesTable(note: NotePrint, o: PrintOptions): object {
  const w = WORDS[o.lang];
  const row = (label: string, v: number) => [text(label), text(formatMoney(v), { alignment: 'right', noWrap: true })];
  return {
    table: { body: [row(w.original, note.original), row(w.correct, note.correct), row(w.difference, note.difference), row(w.vat, note.vat)] },
    layout: 'lightHorizontalLines',
  };
}
