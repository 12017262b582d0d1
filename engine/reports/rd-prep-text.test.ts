import { describe, expect, it } from 'vitest';
import { rdDate, rdMoney, rdPrepLine, rdPrepText, splitThaiName, type RdPrepRow } from './rd-prep-text.ts';

const row = (extra: Partial<RdPrepRow> = {}): RdPrepRow => ({
  doc_date: '2026-11-10', tax_id: '0105558000104', branch_code: '00000', payee_name: 'บริษัท ผู้ขาย หนึ่ง จำกัด',
  address_line: '99/1 ถ.สุขุมวิท', sub_district: 'คลองเตย', district: 'คลองเตย', province: 'กรุงเทพมหานคร', postal_code: '10110',
  income_description: 'ค่าบริการ', wht_rate: '3', amount_paid: 1333.5, tax_amount: 40.01, payment_condition: 'withheld', ...extra,
});

describe('RD Prep text (ภ.ง.ด.3 / 53 attachment)', () => {
  it('writes a ภ.ง.ด.53 line in the 16-field layout', () => {
    expect(rdPrepLine('pnd53', 1, row())).toBe('1|0105558000104|00000||บริษัท ผู้ขาย หนึ่ง จำกัด|99/1 ถ.สุขุมวิท|คลองเตย|คลองเตย|กรุงเทพมหานคร|10110|10112569|ค่าบริการ|3|1,333.50|40.01|1');
  });

  it('splits an individual\'s name for ภ.ง.ด.3 (17 fields) and codes the condition', () => {
    const line = rdPrepLine('pnd3', 2, row({ payee_name: 'นาย ช่าง  สาม', payment_condition: 'paid_once', amount_paid: '333.50', tax_amount: '10.01' }));
    expect(line.split('|')).toHaveLength(17);
    expect(line).toBe('2|0105558000104|00000|นาย|ช่าง|สาม|99/1 ถ.สุขุมวิท|คลองเตย|คลองเตย|กรุงเทพมหานคร|10110|10112569|ค่าบริการ|3|333.50|10.01|3');
    expect(splitThaiName('นางสาวสมหญิง ใจดี')).toEqual({ title: 'นางสาว', first: 'สมหญิง', last: 'ใจดี' });
  });

  it('keeps money exact, dates in the Buddhist era, and ends every line with CRLF', () => {
    expect(rdMoney(1234567.5)).toBe('1,234,567.50');
    expect(rdMoney('0.1')).toBe('0.10');
    expect(rdDate('2026-01-05')).toBe('05012569');
    expect(rdPrepText('pnd53', [row(), row({ payee_name: 'A|B' })])).toMatch(/^1\|.*\r\n2\|0105558000104\|00000\|\|A B\|.*\r\n$/);
    expect(rdPrepText('pnd53', [])).toBe('');
  });
});
