import { describe, expect, it } from 'vitest';
import { finishingDiscount, vatOfPart } from './part-remainder.ts';
import { computeDocumentSatang } from './document-math.ts';

describe('the satang a split leaves, on the part that finishes (issue 44 §9)', () => {
  it('two halves of 3 × 33.33: the second comes to 49.99, so the parts make 99.99', () => {
    const line = computeDocumentSatang({ vat_type: 'exclude', items: [{ qty: 3, price: 33.33 }] }).items[0]!.amount;
    expect(line).toBe(9999n);
    const first = computeDocumentSatang({ vat_type: 'exclude', items: [{ qty: 1.5, price: 33.33 }] }).items[0]!.amount;
    expect(first).toBe(5000n);
    const d = finishingDiscount(15000n, 3333n, 4, line, first);
    expect(d).toBe(1n);
    const last = computeDocumentSatang({ vat_type: 'exclude', items: [{ qty: 1.5, price: 33.33, discount_amount: '0.01' }] });
    expect(first + last.items[0]!.amount).toBe(line);
    // VAT on each invoice is its own rate × base: 3.50 + 3.50 (3.4993), as on the order's 99.99 (6.9993 → 7.00)
    expect(last.vat_amount).toBe(350n);
  });

  it('a line discount already carried is part of what is left; nothing left over asks for nothing', () => {
    // 3 × 10.00 less 1.00 = 29.00; the first third came to 9.67 (10.00 less 0.33): 19.33 left for 2 units of 20.00
    expect(finishingDiscount(20000n, 1000n, 4, 2900n, 967n)).toBe(67n);
    expect(finishingDiscount(10000n, 1000n, 4, 3000n, 2000n)).toBe(0n);
  });

  it('parts that came to less than the line leave the finishing part as priced', () => {
    // 1 × 0.10 taken as 0.33, 0.33, 0.34: 0.03 + 0.03 and 0.034 → 0.03 would need a discount of -0.01
    expect(finishingDiscount(3400n, 10n, 4, 10n, 6n)).toBeNull();
  });

  it('a credit note reverses the invoice\'s VAT in proportion, and the last one exactly what is left', () => {
    // an invoice of 1,000.00 + 70.00: three notes of 356.67, 356.67 and 356.66
    const first = vatOfPart(7000n, 107000n, 0n, 35667n, 0n);
    const second = vatOfPart(7000n, 107000n, 35667n, 35667n, first);
    const last = vatOfPart(7000n, 107000n, 71334n, 35666n, first + second);
    expect([first, second, last]).toEqual([2333n, 2334n, 2333n]);
    expect(first + second + last).toBe(7000n);
    // half the invoice reverses half its VAT
    expect(vatOfPart(7000n, 107000n, 0n, 53500n, 0n)).toBe(3500n);
    // an invoice partly exempt (VAT 7.00 on 207.00): a note of half reverses half of 7.00, not 7/107 of 103.50
    expect(vatOfPart(700n, 20700n, 0n, 10350n, 0n)).toBe(350n);
  });
});
