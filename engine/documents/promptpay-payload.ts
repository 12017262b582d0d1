import { anyId } from 'promptparse/generate';
import { decode, encode, tag, withCrcTag } from 'promptparse';
import { isValidThaiTaxId } from '../validation/thai-tax-id.ts';

/**
 * The PromptPay QR of a bill (issue 34 §2): an EMVCo merchant-presented
 * payload with the PromptPay id (a company's tax id or a mobile number), the
 * amount still due and the document number, ending in its CRC-16 (tag 63).
 * Built with promptparse; in the engine so the server and a form validate
 * an id the same way.
 */
export type PromptPayIdType = 'tax_id' | 'mobile';

/** "0105558034121" → tax id; "081-234-5678" → mobile; anything else (a bad checksum, 9 digits…) → null. */
export function promptPayIdOf(raw: unknown): { idType: PromptPayIdType; target: string } | null {
  if (typeof raw !== 'string') return null;
  const digits = raw.replace(/[\s-]/g, '');
  if (/^\d{13}$/.test(digits)) return isValidThaiTaxId(digits) ? { idType: 'tax_id', target: digits } : null;
  if (/^0[689]\d{8}$/.test(digits)) return { idType: 'mobile', target: digits };
  return null;
}

/** EMVCo "Bill Number" (tag 62, sub-tag 01) takes up to 25 characters of the reference. */
const MAX_REFERENCE = 25;

/**
 * The payload for `satang` (a whole number of satang, more than 0). The
 * reference goes into the Additional Data Field's Bill Number, which EMVCo
 * allows on a merchant-presented code; characters outside printable ASCII are dropped.
 */
export function promptPayPayload(id: string, satang: number, reference?: string | null): { payload: string; idType: PromptPayIdType } {
  const who = promptPayIdOf(id);
  if (!who) throw new Error('not a PromptPay id: a 13-digit tax id or a 10-digit mobile number');
  if (!Number.isSafeInteger(satang) || satang <= 0) throw new Error(`a PromptPay amount is a positive whole number of satang, not ${satang}`);
  // satang / 100 is exact to 2 decimals for every safe integer amount a bill can carry; the library prints it with toFixed(2)
  const base = anyId({ type: who.idType === 'tax_id' ? 'NATID' : 'MSISDN', target: who.target, amount: satang / 100 });
  const ref = (reference ?? '').replace(/[^\x20-\x7E]/g, '').slice(0, MAX_REFERENCE);
  if (!ref) return { payload: base, idType: who.idType };
  const tags = decode(base).filter((t) => t.id !== '63');
  tags.push(tag('62', encode([tag('01', ref)])));
  return { payload: withCrcTag(encode(tags), '63'), idType: who.idType };
}
