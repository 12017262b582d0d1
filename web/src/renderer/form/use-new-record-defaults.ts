import { useEffect, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';
import { api } from '../../core/http-client.ts';
import type { FormValues } from '../form-model.ts';

const empty = (v: unknown) => v === null || v === undefined || v === '';

/** The fields of a new record whose default the server decides (schema key `defaultFrom`: the issuing company). */
export function serverDefaultFields(entity: EntitySchema): string[] {
  return Object.entries(entity.fields).filter(([, f]) => f.defaultFrom !== undefined).map(([n]) => n);
}

/**
 * A new record shows the values the server would give the fields it decides (GET /api/<entity>/defaults:
 * the user's or the site's default company) instead of an empty picker. They become the form's starting
 * values (not a change the person made); a field the form already holds (a prefill) keeps its value.
 * Answers false while they are being asked, so the form opens, and takes its first focus, once they are in.
 * When the answer fails the field stays empty and the server still fills it on save.
 */
export function useNewRecordDefaults(entity: EntitySchema, isNew: boolean, form: UseFormReturn<FormValues>): boolean {
  const fields = isNew ? serverDefaultFields(entity) : [];
  const asks = fields.length > 0;
  const [ready, setReady] = useState(!asks);
  useEffect(() => {
    if (!asks) { setReady(true); return; }
    let live = true;
    setReady(false);
    void api.get<{ data: Record<string, unknown> }>(`/api/${entity.name}/defaults`).then((r) => {
      if (!live) return;
      const values = form.getValues();
      const taken = Object.entries(r.data ?? {}).filter(([k]) => fields.includes(k) && empty(values[k]));
      if (taken.length) form.reset({ ...values, ...Object.fromEntries(taken) });
    }, () => undefined).finally(() => { if (live) setReady(true); });
    return () => { live = false; };
  // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [entity.name, asks]);
  return ready;
}
