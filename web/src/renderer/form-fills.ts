import { useEffect, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';
import { api, type ApiError } from '../core/http-client.ts';
import { valuesToBody, type FormValues, type Resolve } from './form-model.ts';

/**
 * The fields whose change asks the server for fills (fillFrom, fillFrom.priceList,
 * dateFrom): header names, and per lines field the line fields (`product_id`, and
 * `qty` where a price list prices by quantity). Declared in the schema only.
 */
export function fillTriggers(entity: EntitySchema, resolve: Resolve): { header: Set<string>; lines: Record<string, Set<string>> } {
  const header = new Set<string>();
  const lines: Record<string, Set<string>> = {};
  for (const f of Object.values(entity.fields)) {
    if (f.fillFrom && entity.fields[f.fillFrom.link]) header.add(f.fillFrom.link);
    if (f.dateFrom) { header.add(f.dateFrom.date); header.add(f.dateFrom.days.split('.')[0]!); }
  }
  for (const [name, f] of Object.entries(entity.fields)) {
    const child = f.type === 'lines' ? resolve(f.entity!) : undefined;
    for (const g of Object.values(child?.fields ?? {})) {
      if (!g.fillFrom) continue;
      (lines[name] ??= new Set()).add(g.fillFrom.link);
      if (g.fillFrom.priceList && child!.fields.qty) lines[name]!.add('qty');
    }
  }
  return { header, lines };
}

/** Does a changed field name (`customer_id`, `items.2.product_id`) ask for fills? */
export function isFillTrigger(triggers: ReturnType<typeof fillTriggers>, name: string): boolean {
  const parts = name.split('.');
  if (parts.length === 1) return triggers.header.has(name);
  return parts.length === 3 && /^\d+$/.test(parts[1]!) && !!triggers.lines[parts[0]!]?.has(parts[2]!);
}

const empty = (v: unknown) => v === '' || v === null || v === undefined;

/**
 * Puts the server's fills into the form: a field takes its fill while it is empty, still
 * holds the previous fill, or was never touched (it holds its schema default, such as a
 * credit term's 0); a value the person typed is kept.
 */
export function applyFillAnswer(answer: Record<string, unknown>, get: (path: string) => unknown, set: (path: string, v: unknown) => void, last: Record<string, unknown>, untouched: (path: string) => boolean = () => false): string[] {
  const done: string[] = [];
  for (const [path, v] of Object.entries(answer)) {
    const now = get(path);
    if (!empty(now) && now !== last[path] && !untouched(path)) continue;
    last[path] = v;
    set(path, v);
    done.push(path);
  }
  return done;
}

/**
 * Live fills in a form: each change of a trigger asks POST /api/<entity>/fills, and the newest answer wins.
 * On a new record a field still at its schema default counts as untouched; on a stored one its values are
 * someone's earlier choices, kept unless empty or filled here.
 */
export function useFormFills(entity: EntitySchema, resolve: Resolve, form: UseFormReturn<FormValues>, validate: boolean, isNew = false, prefilled: string[] = []): void {
  const last = useRef<Record<string, unknown>>({});
  const prefilledKey = prefilled.join(',');
  useEffect(() => {
    const triggers = fillTriggers(entity, resolve);
    if (!triggers.header.size && !Object.keys(triggers.lines).length) return;
    let asked = 0;
    const ask = (name: string) => {
      const values = form.getValues();
      let record: FormValues;
      try { record = valuesToBody(entity, values, resolve); } catch { return; } // a field being typed that does not read yet
      const mine = ++asked;
      const value = form.getValues(name);
      api.post<{ data: Record<string, unknown> }>(`/api/${entity.name}/fills`, { record, changed: name })
        .then((r) => {
          if (mine !== asked || form.getValues(name) !== value) return; // changed again meanwhile
          const done = applyFillAnswer(r.data, (p) => form.getValues(p as never), (p, v) => form.setValue(p as never, v as never, { shouldDirty: true, shouldValidate: validate }), last.current,
            (p) => isNew && !form.getFieldState(p as never, form.formState).isDirty);
          // a filled link fills what follows it in turn (the voucher gives the supplier, the supplier its tax id)
          for (const p of done) if (p !== name && triggers.header.has(p)) ask(p);
        }, (e: ApiError) => console.error(`fills of ${name} failed:`, e.message));
    };
    const sub = form.watch((_all, { name, type }) => {
      if (!name || type !== 'change' || !isFillTrigger(triggers, name)) return;
      ask(name);
    });
    // a new record opened with a link given (a certificate from its payment voucher) fills from it at once
    if (isNew) for (const name of prefilledKey ? prefilledKey.split(',') : []) if (triggers.header.has(name)) ask(name);
    return () => sub.unsubscribe();
  }, [entity, resolve, form, validate, isNew, prefilledKey]);
}
