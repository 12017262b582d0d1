import { describe, expect, it } from 'vitest';
import { checksum, parse } from 'promptparse';
import { promptPayIdOf, promptPayPayload } from './promptpay-payload.ts';

describe('promptPayPayload', () => {
  it('carries the tax id, the amount, the reference and a CRC-16 that checks', () => {
    const { payload, idType } = promptPayPayload('0105558034121', 1_234_550, 'BN202611-0007');
    expect(idType).toBe('tax_id');
    const qr = parse(payload, true, true)!;
    expect(qr).not.toBeNull();
    expect(qr.validate('63')).toBe(true);
    expect(qr.getTagValue('29', '02')).toBe('0105558034121');
    expect(qr.getTagValue('54')).toBe('12345.50');
    expect(qr.getTagValue('53')).toBe('764');
    expect(qr.getTagValue('62', '01')).toBe('BN202611-0007');
    expect(payload.slice(-4)).toBe(checksum(payload.slice(0, -4)));
  });
  it('takes a mobile number as PromptPay writes it (0066 and the number without its 0)', () => {
    const { payload, idType } = promptPayPayload('081-234-5678', 50_000);
    expect(idType).toBe('mobile');
    const qr = parse(payload, true, true)!;
    expect(qr.getTagValue('29', '01')).toBe('0066812345678');
    expect(qr.getTagValue('54')).toBe('500.00');
    expect(qr.getTag('62')).toBeUndefined();
  });
  it('refuses ids that are neither a valid tax id nor a mobile number, and amounts that are not whole satang', () => {
    for (const bad of ['0105558034122', '12345', '0212345678', '', null]) expect(promptPayIdOf(bad)).toBeNull();
    expect(() => promptPayPayload('0105558034121', 0)).toThrow();
    expect(() => promptPayPayload('0105558034121', 10.5)).toThrow();
  });
  it('keeps the reference to printable ASCII and 25 characters', () => {
    const qr = parse(promptPayPayload('0105558034121', 100, 'ใบวางบิล-BN-0123456789012345678901234').payload, true, true)!;
    expect(qr.getTagValue('62', '01')).toBe('-BN-012345678901234567890');
  });
});
