import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { documentTotals, lineDiscountComputed, TOTAL_FIELDS } from '../../../engine/documents/document-totals.ts';
import { businessToday } from '../../../engine/documents/business-time.ts';

type Row = Record<string, unknown>;

/**
 * A document's totals and line amounts follow what is typed, computed by the
 * same engine code the server stores them with, so what the form shows is
 * what will be saved. Values that cannot be computed yet (a half-typed number)
 * leave the last totals standing; the server says what is wrong on save.
 */
export function useDocumentTotals(entity: EntitySchema, form: UseFormReturn<Row>): void {
  useEffect(() => {
    const doc = entity.document;
    if (!doc?.amounts) return;
    const linesField = doc.lines;
    const put = (name: string, v: unknown) => {
      if (form.getValues(name) !== v) form.setValue(name, v, { shouldDirty: false, shouldValidate: false });
    };
    const recompute = (all: Row) => {
      const lines = (Array.isArray(all[linesField]) ? all[linesField] : []) as Row[];
      let t;
      try { t = documentTotals(all, lines, businessToday(new Date())); } catch { return; }
      for (const f of TOTAL_FIELDS) if (entity.fields[f]) put(f, t[f]);
      lines.forEach((l, i) => {
        put(`${linesField}.${i}.amount`, t.items[i]!.amount);
        if (lineDiscountComputed(l)) put(`${linesField}.${i}.discount_amount`, t.items[i]!.discount);
      });
    };
    // setting a total triggers the watcher again; the equality check in put() ends that at once
    const sub = form.watch((all) => recompute(all as Row));
    recompute(form.getValues());
    return () => sub.unsubscribe();
  }, [entity, form]);
}
