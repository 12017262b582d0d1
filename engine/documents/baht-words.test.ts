import { describe, expect, it } from 'vitest';
import { bahtText, bahtTextEnglish, englishNumber } from './baht-words.ts';

describe('bahtText', () => {
  it('reads satang as Thai words', () => {
    expect(bahtText(125050n)).toBe('หนึ่งพันสองร้อยห้าสิบบาทห้าสิบสตางค์');
    expect(bahtText(125000)).toBe('หนึ่งพันสองร้อยห้าสิบบาทถ้วน');
    expect(bahtText(2101n)).toBe('ยี่สิบเอ็ดบาทหนึ่งสตางค์');
    expect(bahtText(5n)).toBe('ห้าสตางค์');
    expect(bahtText(0n)).toBe('ศูนย์บาทถ้วน');
    expect(bahtText(1_000_000_00n)).toBe('หนึ่งล้านบาทถ้วน');
  });
  it('keeps amounts beyond float precision exact', () => {
    // 12,345,678,901,234.56 baht: more digits than a double holds exactly
    expect(bahtText(1234567890123456n)).toMatch(/ห้าสิบหกสตางค์$/);
    expect(() => bahtText(1.5)).toThrow(/whole satang/);
  });
});

describe('bahtTextEnglish', () => {
  it('reads satang as English words', () => {
    expect(bahtTextEnglish(125050n)).toBe('One thousand two hundred fifty baht and fifty satang');
    expect(bahtTextEnglish(125000n)).toBe('One thousand two hundred fifty baht only');
    expect(bahtTextEnglish(2101n)).toBe('Twenty-one baht and one satang');
    expect(bahtTextEnglish(5n)).toBe('Five satang');
    expect(bahtTextEnglish(0n)).toBe('Zero baht only');
    expect(bahtTextEnglish(-10000n)).toBe('Minus one hundred baht only');
  });
  it('names the big groups', () => {
    expect(englishNumber(1_002_003n)).toBe('one million two thousand three');
    expect(englishNumber(7_000_000_000n)).toBe('seven billion');
  });
});
