/**
 * The satang a split leaves over, given to the part that finishes (issue 44 §9: "the finishing document takes
 * exactly what is left"), so the parts of a line, or of a tax invoice's VAT, add up to it exactly. All in satang.
 */
import { roundDiv } from './decimal-value.ts';
import { shareOfTake } from './document-math.ts';

/**
 * The line discount that brings the take finishing a source line by quantity to exactly what the earlier
 * takes left of the line's amount. Each part is priced on its own (qty × price, half-up), so the two halves of
 * 3 × 33.33 = 99.99 come to 50.00 each: the second takes a discount of 0.01 and comes to 49.99.
 * `take` is the quantity scaled by 10^qtyScale; `lineAmount` the source line's amount after its discount;
 * `earlier` what the earlier parts' lines came to. Null when the parts came to less than the line (rounding the
 * other way, possible with three parts or more): a discount cannot add, so the part gets the missing satang as
 * `rounding_amount` when it is posted (server/documents/line-rounding.ts).
 */
export function finishingDiscount(take: bigint, price: bigint, qtyScale: number, lineAmount: bigint, earlier: bigint): bigint | null {
  const gross = roundDiv(take * price, 10n ** BigInt(qtyScale));
  const discount = gross - (lineAmount - earlier);
  return discount >= 0n && discount <= gross ? discount : null;
}

/**
 * The VAT a note (a credit note made from a tax invoice) reverses for `amount` of the invoice's `total`, of which
 * `before` was credited by earlier notes: the invoice's VAT in proportion, rounded half-up on what has been credited
 * so far. The note that credits the last of the invoice takes exactly the VAT the earlier notes left
 * (`earlierVat`, what they state), so all of them together reverse the invoice's VAT to the satang.
 */
export function vatOfPart(vat: bigint, total: bigint, before: bigint, amount: bigint, earlierVat: bigint): bigint {
  if (total <= 0n) return 0n;
  if (before + amount >= total) return vat - earlierVat;
  return shareOfTake(vat, total, before, amount);
}
