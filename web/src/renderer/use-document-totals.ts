import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { documentTotals, lineDiscountComputed, TOTAL_FIELDS } from '../../../engine/documents/document-totals.ts';
import { businessToday } from '../../../engine/documents/business-time.ts';
import { withholdingTax } from '../../../engine/documents/withholding-certificate.ts';

type Row = Record<string, unknown>;

/**
 * A document's totals and line amounts follow what is typed, computed by the
 * same engine code the server stores them with, so what the form shows is
 * what will be saved. Values that cannot be computed yet (a half-typed number)
 * leave the last totals standing; the server says what is wrong on save.
 */
export function useDocumentTotals(entity: EntitySchema, form: UseFormReturn<Row>): void {
  useWithholdingTax(entity, form);
  useEffect(() => {
    const doc = entity.document;
    if (!doc?.amounts || !doc.lines) return;
    const linesField = doc.lines;
    const byAmount = Boolean(doc.byAmount);
    const put = (name: string, v: unknown) => {
      if (form.getValues(name) !== v) form.setValue(name, v, { shouldDirty: false, shouldValidate: false });
    };
    const recompute = (all: Row) => {
      const lines = (Array.isArray(all[linesField]) ? all[linesField] : []) as Row[];
      let t;
      try { t = documentTotals(all, lines, businessToday(new Date()), byAmount); } catch { return; }
      // a receipt's tax withheld is typed (from the customer's 50 ทวิ), not computed: leave the input alone
      for (const f of TOTAL_FIELDS) if (entity.fields[f] && !(byAmount && f === 'wht_amount')) put(f, t[f]);
      lines.forEach((l, i) => {
        if (!byAmount) put(`${linesField}.${i}.amount`, t.items[i]!.amount);
        if (lineDiscountComputed(l)) put(`${linesField}.${i}.discount_amount`, t.items[i]!.discount);
      });
    };
    // setting a total triggers the watcher again; the equality check in put() ends that at once
    const sub = form.watch((all) => recompute(all as Row));
    recompute(form.getValues());
    return () => sub.unsubscribe();
  }, [entity, form]);
}

/** A withholding certificate's fields, as the server finds them (server/documents/withholding-amounts.ts). */
export const hasWithholdingTax = (entity: EntitySchema): boolean => Boolean(entity.fields.tax_amount && entity.fields.amount_paid && entity.fields.wht_rate);

/**
 * The tax a certificate withholds, as the server will store it (the same engine
 * function), or undefined while the values cannot be computed yet (a half-typed
 * or negative amount, a rate that is not 1, 2, 3 or 5 %): the last value then
 * stands and the server names the problem on save.
 */
export function liveWithholdingTax(values: Row): number | undefined {
  try {
    // the values as the form holds them, as documentTotals takes the lines' (a money input holds a number or a decimal text)
    return withholdingTax(values.amount_paid as number | string | null, values.wht_rate as string | null);
  } catch {
    return undefined;
  }
}

/** tax_amount follows amount_paid and wht_rate as they are typed (issue 9: the form shows what the server stores). */
function useWithholdingTax(entity: EntitySchema, form: UseFormReturn<Row>): void {
  useEffect(() => {
    if (!hasWithholdingTax(entity)) return;
    const recompute = (all: Row) => {
      const tax = liveWithholdingTax(all);
      if (tax !== undefined && form.getValues('tax_amount') !== tax) form.setValue('tax_amount', tax, { shouldDirty: false, shouldValidate: false });
    };
    const sub = form.watch((all) => recompute(all as Row));
    recompute(form.getValues());
    return () => sub.unsubscribe();
  }, [entity, form]);
}
