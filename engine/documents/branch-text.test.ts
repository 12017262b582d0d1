import { describe, expect, it } from 'vitest';
import { branchText } from './branch-text.ts';

describe('branchText', () => {
  it('names the head office for a code of zeros, in either language', () => {
    expect(branchText('00000', 'ไม่ใช้', 'th')).toBe('สำนักงานใหญ่');
    expect(branchText('00000', null, 'en')).toBe('Head office');
  });
  it('numbers a branch and adds its name when there is one', () => {
    expect(branchText('00012', 'บางนา', 'th')).toBe('สาขาที่ 00012 บางนา');
    expect(branchText('00012', '', 'th')).toBe('สาขาที่ 00012');
    expect(branchText(' 00003 ', undefined, 'en')).toBe('Branch 00003');
  });
  it('answers null when no code is recorded', () => {
    for (const blank of [null, undefined, '', '  ']) expect(branchText(blank, 'x')).toBeNull();
  });
});
