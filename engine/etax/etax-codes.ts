/**
 * Codes of the ETDA e-Tax Invoice & e-Receipt standard (ขมธอ. 3-2560 version 2.0) that the product uses.
 * The type codes and their Thai names are the ones ETDA's schematron checks (TypeCode and Name must match);
 * docs/documents.md, "e-Tax", has the mapping from our documents.
 */
import type { EtaxTypeCode } from '../schema/document-spec-types.ts';

/** Which of ETDA's six messages (root element) carries a type code. */
export type EtaxMessage = 'TaxInvoice' | 'AbbreviatedTaxInvoice' | 'Receipt' | 'DebitCreditNote' | 'Invoice' | 'CancellationNote';

export interface EtaxType { name: string; message: EtaxMessage }

/** ETDA's invoice (380) is not a tax document: its XSD has no place for a signature. */
export const SIGNED_MESSAGES: ReadonlySet<EtaxMessage> = new Set(['TaxInvoice', 'AbbreviatedTaxInvoice', 'Receipt', 'DebitCreditNote', 'CancellationNote']);

export const ETAX_TYPES: Record<EtaxTypeCode | 'T07', EtaxType> = {
  '388': { name: 'ใบกำกับภาษี', message: 'TaxInvoice' },
  T02: { name: 'ใบแจ้งหนี้/ใบกำกับภาษี', message: 'TaxInvoice' },
  T03: { name: 'ใบเสร็จรับเงิน/ใบกำกับภาษี', message: 'TaxInvoice' },
  T04: { name: 'ใบส่งของ/ใบกำกับภาษี', message: 'TaxInvoice' },
  // the abbreviated tax invoice is a message of its own, with the seller but no buyer (its XSD has no place for one)
  T05: { name: 'ใบกำกับภาษีอย่างย่อ', message: 'AbbreviatedTaxInvoice' },
  T06: { name: 'ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ', message: 'AbbreviatedTaxInvoice' },
  T01: { name: 'ใบรับ', message: 'Receipt' },
  '80': { name: 'ใบเพิ่มหนี้', message: 'DebitCreditNote' },
  '81': { name: 'ใบลดหนี้', message: 'DebitCreditNote' },
  '380': { name: 'ใบแจ้งหนี้', message: 'Invoice' },
  T07: { name: 'ใบแจ้งยกเลิก', message: 'CancellationNote' },
};

/** The guideline id every message names, with schemeVersionID "v2.0" (schematron *-DocumentContext-001). */
export const ETAX_GUIDELINE = { id: 'ER3-2560', agency: 'ETDA', version: 'v2.0' } as const;

/** Namespaces of a message: rsm for its root, ram for its aggregates. */
export function etaxNamespaces(message: EtaxMessage): { rsm: string; ram: string } {
  return {
    rsm: `urn:etda:uncefact:data:standard:${message}_CrossIndustryInvoice:2`,
    ram: `urn:etda:uncefact:data:standard:${message}_ReusableAggregateBusinessInformationEntity:2`,
  };
}

/**
 * Purpose codes for a note whose reason is written out (the "other" code of each group, which needs
 * `Purpose`): ETDA's list also has specific codes (CDNG01 price reduced, DBNG01 price raised…) that our
 * documents do not record, so the reason goes in words.
 */
export const ETAX_OTHER_PURPOSE = { '81': 'CDNG99', '80': 'DBNG99' } as const;

/**
 * Provinces by their Thai name, as CountrySubDivisionID (ISO 3166-2:TH / TISI 1099 province codes, which
 * the seller's structured address needs: schematron *-SellerTradeParty-012).
 */
export const PROVINCE_CODES: Record<string, string> = {
  'กรุงเทพมหานคร': '10', 'สมุทรปราการ': '11', 'นนทบุรี': '12', 'ปทุมธานี': '13', 'พระนครศรีอยุธยา': '14', 'อ่างทอง': '15',
  'ลพบุรี': '16', 'สิงห์บุรี': '17', 'ชัยนาท': '18', 'สระบุรี': '19', 'ชลบุรี': '20', 'ระยอง': '21', 'จันทบุรี': '22', 'ตราด': '23',
  'ฉะเชิงเทรา': '24', 'ปราจีนบุรี': '25', 'นครนายก': '26', 'สระแก้ว': '27', 'นครราชสีมา': '30', 'บุรีรัมย์': '31', 'สุรินทร์': '32',
  'ศรีสะเกษ': '33', 'อุบลราชธานี': '34', 'ยโสธร': '35', 'ชัยภูมิ': '36', 'อำนาจเจริญ': '37', 'บึงกาฬ': '38', 'หนองบัวลำภู': '39',
  'ขอนแก่น': '40', 'อุดรธานี': '41', 'เลย': '42', 'หนองคาย': '43', 'มหาสารคาม': '44', 'ร้อยเอ็ด': '45', 'กาฬสินธุ์': '46',
  'สกลนคร': '47', 'นครพนม': '48', 'มุกดาหาร': '49', 'เชียงใหม่': '50', 'ลำพูน': '51', 'ลำปาง': '52', 'อุตรดิตถ์': '53', 'แพร่': '54',
  'น่าน': '55', 'พะเยา': '56', 'เชียงราย': '57', 'แม่ฮ่องสอน': '58', 'นครสวรรค์': '60', 'อุทัยธานี': '61', 'กำแพงเพชร': '62',
  'ตาก': '63', 'สุโขทัย': '64', 'พิษณุโลก': '65', 'พิจิตร': '66', 'เพชรบูรณ์': '67', 'ราชบุรี': '70', 'กาญจนบุรี': '71',
  'สุพรรณบุรี': '72', 'นครปฐม': '73', 'สมุทรสาคร': '74', 'สมุทรสงคราม': '75', 'เพชรบุรี': '76', 'ประจวบคีรีขันธ์': '77',
  'นครศรีธรรมราช': '80', 'กระบี่': '81', 'พังงา': '82', 'ภูเก็ต': '83', 'สุราษฎร์ธานี': '84', 'ระนอง': '85', 'ชุมพร': '86',
  'สงขลา': '90', 'สตูล': '91', 'ตรัง': '92', 'พัทลุง': '93', 'ปัตตานี': '94', 'ยะลา': '95', 'นราธิวาส': '96',
};

/** A province written as a name ("จ.เชียงใหม่", "กรุงเทพฯ") or as its code, as its code; null when unknown. */
export function provinceCode(value: unknown): string | null {
  const s = String(value ?? '').trim().replace(/^(จังหวัด|จ\.)\s*/, '');
  if (/^\d{2}$/.test(s)) return s;
  if (/^(กรุงเทพ|กทม)/.test(s)) return '10';
  return PROVINCE_CODES[s] ?? null;
}

/**
 * Words for the seller rules of ETDA's schematron that our records may not meet, by the rule's id without
 * its message prefix (TIV-, RCT-, DCN-…): the server names the rules (header x-etax-warnings), the form says them.
 */
export const ETAX_WARNING_TEXTS = {
  'SellerTradeParty-005': { th: 'บริษัทผู้ออกเอกสารยังไม่มีเลขประจำตัวผู้เสียภาษี 13 หลัก', en: 'the issuing company has no 13-digit tax id' },
  'SellerTradeParty-007': { th: 'รหัสไปรษณีย์ของบริษัทผู้ออกเอกสารต้องเป็นตัวเลข 5 หลัก', en: "the issuing company's postcode must be 5 digits" },
  'SellerTradeParty-009': { th: 'ที่อยู่ของบริษัทผู้ออกเอกสารต้องขึ้นต้นด้วยบ้านเลขที่', en: "the issuing company's address must start with its house number" },
  'SellerTradeParty-010': { th: 'เขต/อำเภอของบริษัทผู้ออกเอกสารต้องเป็นรหัส 4 หลักตาม มอก. 1099', en: "the issuing company's district must be its 4-digit TISI 1099 code" },
  'SellerTradeParty-011': { th: 'แขวง/ตำบลของบริษัทผู้ออกเอกสารต้องเป็นรหัส 6 หลักตาม มอก. 1099', en: "the issuing company's sub-district must be its 6-digit TISI 1099 code" },
  'SellerTradeParty-012': { th: 'ไม่รู้จักจังหวัดของบริษัทผู้ออกเอกสาร', en: "the issuing company's province is not recognised" },
} as const;

/**
 * The abbreviated tax invoice's schematron numbers the same seller rules one higher (ABB-SellerTradeParty-006
 * is the tax id, where the other messages have -005): its rule number by the others'.
 */
export const ABB_SELLER_RULES: Record<keyof typeof ETAX_WARNING_TEXTS, string> = {
  'SellerTradeParty-005': 'SellerTradeParty-006', 'SellerTradeParty-007': 'SellerTradeParty-008', 'SellerTradeParty-009': 'SellerTradeParty-010',
  'SellerTradeParty-010': 'SellerTradeParty-011', 'SellerTradeParty-011': 'SellerTradeParty-012', 'SellerTradeParty-012': 'SellerTradeParty-013',
};
const ABB_BACK = Object.fromEntries(Object.entries(ABB_SELLER_RULES).map(([k, v]) => [v, k])) as Record<string, keyof typeof ETAX_WARNING_TEXTS>;

/** The words of the rules a header x-etax-warnings names, in the reader's language; unknown ids are left out. */
export function etaxWarningTexts(header: string | null, lang: 'th' | 'en'): string[] {
  return (header ?? '').split(',').map((r) => {
    const rule = r.trim();
    const key = rule.startsWith('ABB-') ? ABB_BACK[rule.slice(4)] : rule.replace(/^[A-Z]+-/, '') as keyof typeof ETAX_WARNING_TEXTS;
    return key ? ETAX_WARNING_TEXTS[key]?.[lang] : undefined;
  }).filter((x): x is NonNullable<typeof x> => Boolean(x));
}
