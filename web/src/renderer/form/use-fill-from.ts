import { useEffect, useMemo, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { api, type ApiError } from '../../core/http-client.ts';
import type { FormValues } from '../form-model.ts';

/** Link fields that others copy from (`fillFrom`): link name → [{field, from}]. */
export function fillFromMap(entity: EntitySchema): Record<string, Array<{ field: string; from: string }>> {
  const out: Record<string, Array<{ field: string; from: string }>> = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.fillFrom || !entity.fields[f.fillFrom.link]) continue;
    (out[f.fillFrom.link] ??= []).push({ field: name, from: f.fillFrom.field });
  }
  return out;
}

/** fillFrom, live: choosing a link copies the linked row's fields (still editable); a value typed by hand is kept. */
export function useFillFrom(entity: EntitySchema, form: UseFormReturn<FormValues>): void {
  const fills = useMemo(() => fillFromMap(entity), [entity]);
  const lastFill = useRef<Record<string, unknown>>({});
  const { getValues, setValue, formState } = form;
  useEffect(() => {
    if (Object.keys(fills).length === 0) return;
    const sub = form.watch((all, { name, type: ev }) => {
      if (!name || ev !== 'change' || !fills[name]) return;
      const linkId = all[name];
      if (typeof linkId !== 'number') return;
      const target = entity.fields[name]!.entity!;
      const pairs = fills[name]!;
      api.get<{ data: Record<string, unknown> }>(`/api/${target}/${linkId}`, { searchParams: { fields: ['id', ...new Set(pairs.map((p) => p.from))].join(',') } })
        .then((r) => {
          if (getValues(name) !== linkId) return; // chosen again meanwhile
          for (const { field, from } of pairs) {
            const now = getValues(field);
            const untouched = now === '' || now === null || now === undefined || now === lastFill.current[field];
            if (!untouched) continue;
            const v = r.data[from] ?? '';
            lastFill.current[field] = v;
            setValue(field, v, { shouldDirty: true, shouldValidate: formState.isSubmitted });
          }
        }, (e: ApiError) => console.error(`fillFrom ${target}/${linkId} failed:`, e.message));
    });
    return () => sub.unsubscribe();
  }, [form, fills, entity, getValues, setValue, formState.isSubmitted]);
}
