import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { DocumentSource } from '../../engine/schema/document-spec-types.ts';
import { businessToday } from '../../engine/documents/business-time.ts';
import { shareOfTake, type DocumentTotals } from '../../engine/documents/document-math.ts';
import { roundDiv, toNumber } from '../../engine/documents/decimal-value.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { scaleOf } from '../db/field-codec.ts';
import { documentTotals } from '../../engine/documents/document-totals.ts';
import { finishingDiscount } from '../../engine/documents/part-remainder.ts';
import type { EntityService } from '../crud/entity-service.ts';
import { businessClock } from '../../engine/documents/business-clock.ts';
import { linesOf } from './document-lines.ts';

type Row = Record<string, unknown>;

const nonZero = (v: unknown) => v !== null && v !== undefined && v !== '' && Number(v) !== 0;
const satang = (baht: unknown) => BigInt(Math.round(Number(baht ?? 0) * 100));

/**
 * Carries a source's discounts and withholding rates into a document made from it by quantity
 * (quotation → sales order → tax invoice), when the source declares its line discounts among the
 * fields it gives (`lineFields` with "discount_amount"): docs/documents.md, "Carrying discounts".
 *
 * - A line taken whole keeps its discount as it is (a percent or an amount). A part of a line takes the
 *   part of the line's discount for those units (the remainder on the take that finishes the line), as
 *   an amount, so the parts of the line add up to it exactly.
 * - The document discount: a source taken whole in one document keeps its percent (or amount);
 *   otherwise each line taken brings its share of it (spread over the source's lines in proportion
 *   to their amounts after line discounts, remainder on the last line), in part for a part of the
 *   line, and the new document's discount is the sum of those shares.
 * - A line without a rate of its own gets the source's document rate, so lines from sources with
 *   different rates keep theirs; the header rate is the sources' when they agree.
 * - `netPrice` (a goods receipt from a purchase order): the named line field takes the source line's
 *   net unit price, its part of the amount before VAT over its quantity, rounded to the satang.
 * - The take that finishes a line taken in parts brings exactly what the earlier parts left of the line's amount
 *   (`finish`): each part is priced on its own, so 1.5 and 1.5 of 3 × 33.33 = 99.99 would come to 50.00 each;
 *   the second takes 0.01 more discount (issue 44 §9, engine/documents/part-remainder.ts).
 */
export class DiscountCarry {
  private readonly on: boolean;
  private readonly linesField: string;
  private readonly whole = new Map<number, boolean>();
  private readonly docs = new Map<number, Row>();
  private readonly totals = new Map<number, DocumentTotals>();
  private shares = 0n;
  private readonly qtyScale: number;
  /** Copies that finish a source line earlier documents took part of: settled by `finish`. */
  private readonly finishing: { copy: Row; sourceLineId: number; take: bigint; price: bigint; lineAmount: bigint }[] = [];

  constructor(private readonly service: EntityService, private readonly source: EntitySchema, private readonly target: EntitySchema, private readonly spec: DocumentSource) {
    this.linesField = linesOf(service, source).field;
    this.on = Boolean(spec.lineFields?.includes('discount_amount') && target.fields.discount_amount);
    const qty = fieldOf(linesOf(service, target).entity, 'qty');
    this.qtyScale = qty ? scaleOf(qty) : 0;
  }

  /** A line of `doc` that is not taken in full: the document is then not taken whole. */
  skip(doc: Row): void {
    this.whole.set(Number(doc.id), false);
  }

  /** `want` more of a line holding `cap` of which `done` were taken (scaled quantities). */
  line(doc: Row, line: Row, copy: Row, cap: number, done: number, want: number): void {
    const id = Number(doc.id);
    this.docs.set(id, doc);
    if (!this.whole.has(id)) this.whole.set(id, done === 0);
    if (done > 0) this.whole.set(id, false);
    if (this.spec.lineFields?.includes('wht_rate') && !nonZero(line.wht_rate) && nonZero(doc.wht_rate)) copy.wht_rate = doc.wht_rate;
    if (!this.on && !this.spec.netPrice) return;
    const [whole, before, take] = [BigInt(cap), BigInt(done), BigInt(want)];
    const lines = (doc[this.linesField] as Row[] | undefined) ?? [];
    const i = lines.findIndex((l) => Number(l.id) === Number(line.id));
    const totals = this.totalsOf(doc, lines).items[i];
    // what a unit really cost: a receipt valued at the order's gross price would overstate stock by its discounts (and VAT)
    if (this.spec.netPrice && totals && whole > 0n) copy[this.spec.netPrice] = toNumber(roundDiv(satang(totals.amount_before_vat) * 10n ** BigInt(this.qtyScale), whole));
    if (!this.on) return;
    if (before > 0n && before + take >= whole && this.spec.lineFields?.includes('price') && line.amount !== undefined && line.amount !== null) {
      this.finishing.push({ copy, sourceLineId: Number(line.id), take, price: satang(line.price), lineAmount: satang(line.amount) });
    }
    if (before > 0n || take < whole) {
      // a part of the line: its discount goes as the part of the line's discount for those units, so the
      // parts add up to it (a percent of each part's gross would round each part on its own)
      if (nonZero(line.discount_percent) || nonZero(line.discount_amount)) {
        const gross = roundDiv(take * satang(line.price), 10n ** BigInt(this.qtyScale));
        const part = shareOfTake(satang(totals?.discount), whole, before, take);
        copy.discount_percent = 0;
        copy.discount_amount = toNumber(part < gross ? part : gross);
      }
    }
    this.shares += shareOfTake(satang(totals?.document_discount_share), whole, before, take);
  }

  /**
   * The takes that finish a line (see the class note): each gets the line discount that brings it to what the
   * earlier parts' lines, of the posted documents of this kind made from the line, left of the line's amount.
   */
  async finish(k: Kysely<any>): Promise<void> {
    if (!this.finishing.length) return;
    const tLines = linesOf(this.service, this.target).entity.name;
    const rows = await k.selectFrom('document_link as l').innerJoin(`${tLines} as tl`, 'tl.id', 'l.target_line_id')
      .select(['l.source_line_id as line', 'tl.amount as amount'])
      .where('l.target_entity', '=', this.target.name).where('l.source_entity', '=', this.source.name)
      .where('l.source_line_id', 'in', this.finishing.map((f) => f.sourceLineId)).execute();
    // money is stored as whole satang, so these sums are exact
    const earlier = new Map<number, bigint>();
    for (const r of rows) earlier.set(Number(r.line), (earlier.get(Number(r.line)) ?? 0n) + BigInt(Number(r.amount ?? 0)));
    for (const f of this.finishing) {
      const discount = finishingDiscount(f.take, f.price, this.qtyScale, f.lineAmount, earlier.get(f.sourceLineId) ?? 0n);
      if (discount === null) continue;
      f.copy.discount_percent = 0;
      f.copy.discount_amount = toNumber(discount);
    }
  }

  /** Header values for the new document (under what the caller sends in `values`). */
  header(): Row {
    const out: Row = {};
    const docs = [...this.docs.values()];
    if (this.on) {
      const only = docs.length === 1 ? docs[0]! : null;
      if (only && this.whole.get(Number(only.id)) && nonZero(only.discount_percent) && this.target.fields.discount_percent) out.discount_percent = only.discount_percent;
      else if (this.shares > 0n) out.discount_amount = toNumber(this.shares);
    }
    const rates = new Set(docs.map((d) => Number(d.wht_rate ?? 0)));
    if (this.spec.lineFields?.includes('wht_rate') && this.target.fields.wht_rate && rates.size === 1 && nonZero([...rates][0])) out.wht_rate = [...rates][0];
    return out;
  }

  private totalsOf(doc: Row, lines: Row[]): DocumentTotals {
    const id = Number(doc.id);
    if (!this.totals.has(id)) {
      this.totals.set(id, documentTotals(doc, lines, businessToday(businessClock.now(), businessClock.timeZone), Boolean(this.source.document?.byAmount)));
    }
    return this.totals.get(id)!;
  }
}
