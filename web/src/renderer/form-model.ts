import type { EntitySchema, FieldDef } from '../../../engine/schema/schema-types.ts';
import { parseFilter } from '../../../engine/filter/filter-parser.ts';
import { evaluateFilter } from '../../../engine/filter/filter-evaluator.ts';
import type { FilterNode } from '../../../engine/filter/filter-types.ts';
import { bangkokInputToIso, isoToBangkokInput, nowBangkokInput } from '../core/thai-dates.ts';

export type FormValues = Record<string, unknown>;
export type Resolve = (name: string) => EntitySchema | undefined;

/** Fields the form edits (everything but system columns), in section order. */
export function formSections(entity: EntitySchema): Array<{ key: string; label?: { th: string; en: string }; fields: string[]; columns: number }> {
  if (entity.form?.sections?.length) {
    const listed = new Set(entity.form.sections.flatMap((s) => s.fields));
    const rest = Object.keys(entity.fields).filter((n) => !listed.has(n) && !entity.fields[n]!.hidden);
    const out = entity.form.sections.map((s) => ({ key: s.key, label: s.label, fields: s.fields.filter((f) => entity.fields[f]), columns: s.columns ?? 2 }));
    if (rest.length) out.push({ key: '_rest', label: undefined as never, fields: rest, columns: 2 });
    return out;
  }
  return [{ key: 'main', fields: Object.keys(entity.fields).filter((n) => !entity.fields[n]!.hidden), columns: 2 }];
}

function emptyValue(field: FieldDef): unknown {
  switch (field.type) {
    case 'boolean': return false;
    case 'lines': return [];
    case 'integer': case 'decimal': case 'money': case 'link': return null;
    case 'json': return '';
    default: return '';
  }
}

/** What the dynamic defaults resolve to in the browser. */
export interface DefaultContext {
  userId?: number | null;
  now?: Date;
  /** The site settings, for fields whose default is a setting (schema key `defaultSetting`). */
  settings?: Record<string, unknown> | null;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A moment as the form's date-time value: the Bangkok wall clock "YYYY-MM-DDTHH:mm" (minutes). */
export function localDateTimeInput(d: Date): string {
  return nowBangkokInput(d);
}

/** "$NOW" and "$CURRENT_USER" as the form shows them on create (the server resolves them the same way when left out). */
export function resolveDynamicDefault(field: FieldDef, ctx: DefaultContext): unknown {
  if (field.default === '$NOW') {
    const now = ctx.now ?? new Date();
    if (field.type === 'date') return localDateTimeInput(now).slice(0, 10);
    if (field.type === 'datetime') return localDateTimeInput(now);
    return now.toISOString();
  }
  if (field.default === '$CURRENT_USER') return ctx.userId ?? emptyValue(field);
  return field.default;
}

/** Form values for a new record: schema defaults (dynamic ones resolved), else empty. */
export function defaultValues(entity: EntitySchema, ctx: DefaultContext = {}): FormValues {
  const v: FormValues = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    const fromSetting = settingDefault(f, ctx.settings);
    v[name] = fromSetting !== undefined ? fromSetting
      : f.default !== undefined ? (f.type === 'json' ? JSON.stringify(f.default, null, 2) : resolveDynamicDefault(f, ctx)) : emptyValue(f);
  }
  return v;
}

/** A `defaultSetting` field's default: the setting's value when set (an enum's only when it is an option); the server applies the same rule. */
export function settingDefault(field: FieldDef, settings: Record<string, unknown> | null | undefined): unknown {
  if (!field.defaultSetting || !settings) return undefined;
  const v = settings[field.defaultSetting];
  if (v === null || v === undefined || v === '') return undefined;
  return !field.options || field.options.some((o) => o.value === v) ? v : undefined;
}

import { fieldEnabled } from './field-enabled.ts';

export { fieldEnabled };

function toInput(field: FieldDef, value: unknown, resolve: Resolve): unknown {
  if (value === null || value === undefined) return emptyValue(field);
  if (field.type === 'json') return JSON.stringify(value, null, 2);
  if (field.type === 'datetime' && typeof value === 'string') return isoToBangkokInput(value);
  if (field.type === 'lines' && Array.isArray(value)) {
    const child = resolve(field.entity!);
    return value.map((row) => (child ? recordToValues(child, row as FormValues, resolve, true) : row));
  }
  return value;
}

/** A stored record as form values (lines rows keep their id). */
export function recordToValues(entity: EntitySchema, record: FormValues, resolve: Resolve, asLine = false): FormValues {
  // (lines rows keep their id so an edit updates them instead of inserting)
  const v: FormValues = {};
  for (const [name, f] of Object.entries(entity.fields)) v[name] = toInput(f, record[name], resolve);
  if (asLine && record.id !== undefined) v.id = record.id;
  return v;
}

export class JsonFieldError extends Error {
  constructor(readonly field: string) { super('invalid json'); }
}

function toBodyValue(field: FieldDef, value: unknown, path: string, resolve: Resolve): unknown {
  if (field.type === 'lines') {
    const child = resolve(field.entity!);
    return (Array.isArray(value) ? value : []).map((row, i) => (child ? valuesToBody(child, row as FormValues, resolve, `${path}.${i}.`, true) : row));
  }
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    if (field.type === 'json') {
      if (value.trim() === '') return null;
      try { return JSON.parse(value); } catch { throw new JsonFieldError(path); }
    }
    if (value === '') return field.required ? '' : null;
    if (field.type === 'integer' || field.type === 'decimal' || field.type === 'money' || field.type === 'link') {
      const n = Number(value);
      return Number.isNaN(n) ? value : n;
    }
    if (field.type === 'datetime') return bangkokInputToIso(value);
  }
  return value;
}

/**
 * Form values as the request body: only schema fields that may be written,
 * empty optional values as null; invisible fields are left out.
 */
export function valuesToBody(entity: EntitySchema, values: FormValues, resolve: Resolve, prefix = '', asLine = false, visible?: (name: string) => boolean): FormValues {
  const body: FormValues = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.readOnly) continue;
    if (visible && !visible(name)) continue;
    const v = toBodyValue(f, values[name], `${prefix}${name}`, resolve);
    // an empty numbered field is filled by the server's series
    if ((v === '' || v === null) && entity.numbering?.field === name) continue;
    if (v === null && f.required && f.default !== undefined) continue;
    // left empty, the server fills it (schema key defaultFrom: the issuing company) or says to choose one
    if (v === null && f.defaultFrom !== undefined) continue;
    if (v !== undefined) body[name] = v;
  }
  if (asLine && typeof values.id === 'number') body.id = values.id;
  return body;
}

export interface Conditions {
  visible: (name: string, values: FormValues) => boolean;
  required: (name: string, values: FormValues) => boolean;
  /** The field's `warnIf` text while its condition holds, else null. */
  warning: (name: string, values: FormValues) => { th: string; en: string } | null;
}

/** visibleIf / requiredIf, parsed once with the engine's filter grammar and evaluated live; a field switched off by its site setting (`enabledBy`) is not visible. */
export function compileConditions(entity: EntitySchema, resolve: Resolve, settings?: Record<string, unknown> | null): Conditions {
  const vis = new Map<string, FilterNode>();
  const req = new Map<string, FilterNode>();
  const warn = new Map<string, FilterNode>();
  for (const [name, f] of Object.entries(entity.fields)) {
    try {
      if (f.visibleIf) vis.set(name, parseFilter(f.visibleIf, entity, { entity: resolve }));
      if (f.requiredIf) req.set(name, parseFilter(f.requiredIf, entity, { entity: resolve }));
      if (f.warnIf) warn.set(name, parseFilter(f.warnIf.when, entity, { entity: resolve }));
    } catch (err) {
      console.error(`condition of ${entity.name}.${name} is not valid`, err);
    }
  }
  return {
    visible: (name, values) => { const n = vis.get(name); return fieldEnabled(entity.fields[name], settings) && (!n || evaluateFilter(n, values)); },
    required: (name, values) => !!entity.fields[name]?.required || (!!req.get(name) && evaluateFilter(req.get(name)!, values)),
    warning: (name, values) => { const n = warn.get(name); return n && evaluateFilter(n, values) ? entity.fields[name]!.warnIf!.text : null; },
  };
}

/** Ids of the stored lines of each lines field that the values no longer hold: sent as delete_<field> (the spec's deleteAddressList). */
export function removedLineIds(entity: EntitySchema, stored: FormValues | null, values: FormValues): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  if (!stored) return out;
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines') continue;
    const before = (Array.isArray(stored[name]) ? stored[name] as FormValues[] : []).map((r) => r.id).filter((id): id is number => typeof id === 'number');
    const kept = new Set((Array.isArray(values[name]) ? values[name] as FormValues[] : []).map((r) => r.id));
    const gone = before.filter((id) => !kept.has(id));
    if (gone.length) out[`delete_${name}`] = gone;
  }
  return out;
}
