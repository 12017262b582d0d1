import { describe, expect, it } from 'vitest';
import { ETAX_TYPES, PROVINCE_CODES, etaxWarningTexts, provinceCode } from './etax-codes.ts';

describe('ETDA codes', () => {
  it('has the 77 provinces, each with its own two-digit code', () => {
    expect(Object.keys(PROVINCE_CODES)).toHaveLength(77);
    expect(new Set(Object.values(PROVINCE_CODES)).size).toBe(77);
    expect(Object.values(PROVINCE_CODES).every((c) => /^[1-9]\d$/.test(c))).toBe(true);
  });

  it('reads a province as people write it', () => {
    expect(provinceCode('กรุงเทพมหานคร')).toBe('10');
    expect(provinceCode('กรุงเทพฯ')).toBe('10');
    expect(provinceCode('กทม.')).toBe('10');
    expect(provinceCode('จ.เชียงใหม่')).toBe('50');
    expect(provinceCode('จังหวัด สมุทรปราการ')).toBe('11');
    expect(provinceCode('74')).toBe('74');
    expect(provinceCode('Atlantis')).toBeNull();
    expect(provinceCode(null)).toBeNull();
  });

  it('pairs each type code with the name ETDA\'s schematron expects', () => {
    expect(ETAX_TYPES['388']).toEqual({ name: 'ใบกำกับภาษี', message: 'TaxInvoice' });
    expect(ETAX_TYPES['81'].name).toBe('ใบลดหนี้');
    expect(ETAX_TYPES.T07).toEqual({ name: 'ใบแจ้งยกเลิก', message: 'CancellationNote' });
    // ABB-Document-001: T05 ใบกำกับภาษีอย่างย่อ, T06 ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ
    expect(ETAX_TYPES.T05).toEqual({ name: 'ใบกำกับภาษีอย่างย่อ', message: 'AbbreviatedTaxInvoice' });
    expect(ETAX_TYPES.T06).toEqual({ name: 'ใบเสร็จรับเงิน/ใบกำกับภาษีอย่างย่อ', message: 'AbbreviatedTaxInvoice' });
  });

  it('says the rules of a warnings header in the reader\'s language, whatever the message prefix', () => {
    expect(etaxWarningTexts('TIV-SellerTradeParty-010, DCN-SellerTradeParty-007,XYZ-Unknown-1', 'en')).toEqual([
      "the issuing company's district must be its 4-digit TISI 1099 code", "the issuing company's postcode must be 5 digits",
    ]);
    expect(etaxWarningTexts(null, 'th')).toEqual([]);
    // the abbreviated tax invoice's schematron numbers the seller rules one higher
    expect(etaxWarningTexts('ABB-SellerTradeParty-011,ABB-SellerTradeParty-006', 'en')).toEqual([
      "the issuing company's district must be its 4-digit TISI 1099 code", 'the issuing company has no 13-digit tax id',
    ]);
  });
});
