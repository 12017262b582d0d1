import { fieldOf, type EntitySchema, type FieldDef, type FormSection, type LinkFilterValue } from './schema-types.ts';
import type { LocalizedText } from './localized-text.ts';

/** Where a field is hidden: `none` shows it everywhere (even one its file hides). */
export type HiddenIn = 'none' | 'list' | 'form' | 'both';

/**
 * A runtime override an admin stores in the database (table schema_override).
 * Only presentation and entry rules can be overridden: never a column's type,
 * so an override can never require a database change.
 */
export type SchemaOverride =
  | { entity: string; field: string; property: 'label'; value: LocalizedText }
  /** `true` (older rows) means both; `false` means none. */
  | { entity: string; field: string; property: 'hidden'; value: HiddenIn | boolean }
  | { entity: string; field: string; property: 'required' | 'readOnly'; value: boolean }
  | { entity: string; field: string; property: 'default'; value: unknown }
  | { entity: string; field: string; property: 'width'; value: number }
  /** link fields: the full linkFilter (every entry of the file's, plus constant conditions on the target) */
  | { entity: string; field: string; property: 'linkFilter'; value: Record<string, LinkFilterValue> }
  /** link fields: target fields the picker shows next to the display field */
  | { entity: string; field: string; property: 'pickerColumns'; value: string[] }
  | { entity: string; field: null; property: 'label'; value: LocalizedText }
  | { entity: string; field: null; property: 'listColumns'; value: string[] }
  | { entity: string; field: null; property: 'fieldOrder'; value: string[] }
  | { entity: string; field: null; property: 'defaultSort'; value: string }
  | { entity: string; field: null; property: 'pageSize'; value: number }
  | { entity: string; field: null; property: 'formSections'; value: FormSection[] };

export const OVERRIDABLE_FIELD_PROPERTIES = ['label', 'hidden', 'required', 'readOnly', 'default', 'width', 'linkFilter', 'pickerColumns'] as const;
export const PICKER_COLUMNS_MAX = 4;
export const OVERRIDABLE_ENTITY_PROPERTIES = ['label', 'listColumns', 'fieldOrder', 'defaultSort', 'pageSize', 'formSections'] as const;
export type FieldProperty = (typeof OVERRIDABLE_FIELD_PROPERTIES)[number];
export type EntityProperty = (typeof OVERRIDABLE_ENTITY_PROPERTIES)[number];

export const PAGE_SIZE_LIMITS = { min: 1, max: 500 } as const;
export const WIDTH_LIMITS = { min: 40, max: 1000 } as const;

/** The hidden setting of a field as one value (what the page-setting screen edits). */
export function hiddenIn(f: Pick<FieldDef, 'hidden' | 'listHidden'>): HiddenIn {
  if (f.hidden && f.listHidden) return 'both';
  if (f.hidden) return 'form';
  if (f.listHidden) return 'list';
  return 'none';
}

function hiddenFlags(value: HiddenIn | boolean): { hidden: boolean; listHidden: boolean } {
  const v: HiddenIn = value === true ? 'both' : value === false ? 'none' : value;
  return { hidden: v === 'form' || v === 'both', listHidden: v === 'list' || v === 'both' };
}

/** Drops undefined keys so a merged field compares equal to one written that way. */
function withFlag<T extends object>(o: T, key: string, on: boolean): T {
  const out = { ...o } as Record<string, unknown>;
  if (on) out[key] = true; else delete out[key];
  return out as T;
}

/**
 * Why an override may not be stored, or null. Overrides change presentation and
 * entry rules only, and never loosen what the engine relies on: a field the file
 * makes read-only (numbers, computed amounts) stays read-only, and a field the
 * file requires stays required where the engine needs it (the title, unique keys,
 * the numbering field and the fields its series is split by, the workflow field, a lines row's parent).
 */
export function overrideProblem(base: EntitySchema, o: SchemaOverride, resolve?: (name: string) => EntitySchema | undefined): string | null {
  if (o.field !== null) {
    const f = fieldOf(base, o.field);
    if (!f) return `"${o.field}" is not a field of ${base.name}`;
    switch (o.property) {
      case 'label': return isLocalized(o.value) ? null : 'label needs th and en texts';
      case 'hidden': return typeof o.value === 'boolean' || ['none', 'list', 'form', 'both'].includes(o.value as string) ? null : 'hidden is one of none, list, form, both';
      case 'readOnly':
        if (typeof o.value !== 'boolean') return 'readOnly is true or false';
        if (!o.value && f.readOnly) return `${o.field} is read-only in the schema file and cannot be made writable`;
        return null;
      case 'required':
        if (typeof o.value !== 'boolean') return 'required is true or false';
        if (!o.value && f.required && engineNeeds(base, o.field, f)) return `${o.field} must stay required`;
        if (o.value && f.type === 'lines') return 'a lines field cannot be made required';
        return null;
      case 'width': return Number.isInteger(o.value) && (o.value as number) >= WIDTH_LIMITS.min && (o.value as number) <= WIDTH_LIMITS.max ? null : `width is a whole number of pixels from ${WIDTH_LIMITS.min} to ${WIDTH_LIMITS.max}`;
      case 'default':
        if (f.type === 'lines' || f.type === 'file' || f.type === 'image') return `${o.field} cannot have a default`;
        return null; // the value itself is checked against the field by the server's validator
      case 'linkFilter': {
        if (f.type !== 'link') return `${o.field} is not a link`;
        const v = o.value as Record<string, unknown>;
        if (!v || typeof v !== 'object' || Array.isArray(v)) return 'linkFilter is an object of target field → value';
        // the file's conditions stay (a contact of the chosen company); an override only adds constant ones
        for (const [k, fv] of Object.entries(f.linkFilter ?? {})) if (JSON.stringify(v[k]) !== JSON.stringify(fv)) return `linkFilter keeps the file's condition on ${k}`;
        for (const [k, x] of Object.entries(v)) {
          if (f.linkFilter && Object.hasOwn(f.linkFilter, k)) continue;
          if (!['string', 'number', 'boolean'].includes(typeof x) || (typeof x === 'string' && x.startsWith('$'))) return `linkFilter on ${k} is a constant (text, number, true or false)`;
          const tf = resolve?.(f.entity!);
          if (tf && !fieldOf(tf, k)) return `"${k}" is not a field of ${f.entity}`;
        }
        return null;
      }
      case 'pickerColumns': {
        if (f.type !== 'link') return `${o.field} is not a link`;
        const v = o.value as unknown;
        if (!Array.isArray(v) || v.some((c) => typeof c !== 'string') || v.length > PICKER_COLUMNS_MAX) return `pickerColumns is a list of at most ${PICKER_COLUMNS_MAX} field names`;
        const tf = resolve?.(f.entity!);
        const bad = tf && (v as string[]).find((c) => { const t = fieldOf(tf, c); return !t || t.type === 'lines' || t.type === 'json'; });
        return bad ? `"${bad}" is not a column of ${f.entity}` : null;
      }
      default: return `"${String((o as { property: unknown }).property)}" cannot be overridden on a field`;
    }
  }
  const names = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  switch (o.property) {
    case 'label': return isLocalized(o.value) ? null : 'label needs th and en texts';
    case 'listColumns': {
      if (!names(o.value) || o.value.length === 0) return 'listColumns is a non-empty list of field names';
      const bad = o.value.find((c) => !isColumn(base, c));
      return bad ? `"${bad}" is not a column of ${base.name}` : null;
    }
    case 'fieldOrder': {
      if (!names(o.value)) return 'fieldOrder is a list of field names';
      const bad = o.value.find((c) => !fieldOf(base, c));
      return bad ? `"${bad}" is not a field of ${base.name}` : null;
    }
    case 'defaultSort': {
      if (typeof o.value !== 'string' || !o.value.trim()) return 'defaultSort is a field name, "-" before it for descending';
      for (const part of o.value.split(',')) {
        const n = part.trim().replace(/^-/, '');
        const f = fieldOf(base, n);
        if (!(f ? f.type !== 'lines' && f.type !== 'json' : ['id', 'created_at', 'updated_at'].includes(n))) return `"${n}" cannot be sorted on`;
      }
      return null;
    }
    case 'pageSize': return Number.isInteger(o.value) && o.value >= PAGE_SIZE_LIMITS.min && o.value <= PAGE_SIZE_LIMITS.max ? null : `pageSize is a whole number from ${PAGE_SIZE_LIMITS.min} to ${PAGE_SIZE_LIMITS.max}`;
    case 'formSections': {
      if (!Array.isArray(o.value) || o.value.length === 0) return 'formSections is a non-empty list of sections';
      const keys = new Set<string>();
      const seen = new Set<string>();
      for (const s of o.value as unknown[]) {
        const sec = s as Partial<FormSection>;
        if (!sec || typeof sec !== 'object' || typeof sec.key !== 'string' || !/^[a-z0-9_]{1,40}$/.test(sec.key)) return 'each section has a key (a-z, 0-9, _)';
        if (keys.has(sec.key)) return `section "${sec.key}" appears twice`;
        keys.add(sec.key);
        if (!isLocalized(sec.label)) return `section "${sec.key}" needs th and en labels`;
        if (sec.columns !== undefined && ![1, 2, 3].includes(sec.columns)) return `section "${sec.key}": columns is 1, 2 or 3`;
        if (!names(sec.fields)) return `section "${sec.key}" lists field names`;
        for (const n of sec.fields) {
          if (!fieldOf(base, n)) return `"${n}" is not a field of ${base.name}`;
          if (seen.has(n)) return `"${n}" is in two sections`;
          seen.add(n);
        }
        const extra = Object.keys(sec).find((k) => !['key', 'label', 'fields', 'columns'].includes(k));
        if (extra) return `section "${sec.key}": unknown property "${extra}"`;
      }
      return null;
    }
    default: return `"${String((o as { property: unknown }).property)}" cannot be overridden on a page`;
  }
}

function isLocalized(v: unknown): v is LocalizedText {
  const l = v as LocalizedText;
  return !!l && typeof l === 'object' && typeof l.th === 'string' && typeof l.en === 'string' && l.th.trim() !== '' && l.en.trim() !== ''
    && l.th.length <= 200 && l.en.length <= 200 && Object.keys(l).length === 2;
}

function isColumn(base: EntitySchema, c: string): boolean {
  if (['id', 'created_at', 'updated_at'].includes(c)) return true;
  const f = fieldOf(base, c);
  return !!f && f.type !== 'lines' && f.type !== 'json';
}

function engineNeeds(base: EntitySchema, name: string, f: FieldDef): boolean {
  return name === base.titleField || !!f.unique || base.numbering?.field === name || base.workflow?.field === name
    || base.parent?.field === name || base.document?.lines === name
    // a series split per company needs the company: without it, documents would share a series without a name
    || !!base.numbering?.per?.includes(name);
}

const TRIMMED = new Set<string>(['listColumns', 'fieldOrder', 'formSections']);

/** Returns a new schema with the overrides applied; the file schema is never mutated. */
export function applyOverrides(base: EntitySchema, overrides: readonly SchemaOverride[]): EntitySchema {
  const mine = overrides.filter((o) => o.entity === base.name);
  if (mine.length === 0) return base;
  const fields: Record<string, FieldDef> = { ...base.fields };
  let merged: EntitySchema = { ...base, fields };
  for (const o of mine) {
    // an override the rules refuse (stored before a rule existed, or since the file changed) is ignored,
    // so the server never enforces less than the file says
    // (lists of names are only trimmed: a field since removed from the file drops out of them)
    if (!TRIMMED.has(o.property) && overrideProblem(base, o)) continue;
    if (o.field === null) {
      switch (o.property) {
        case 'label': merged = { ...merged, label: o.value }; break;
        case 'listColumns': {
          const cols = Array.isArray(o.value) ? o.value.filter((c) => isColumn(base, c)) : [];
          if (cols.length) merged = { ...merged, list: { ...(merged.list ?? { columns: [] }), columns: cols } };
          break;
        }
        case 'pageSize': merged = { ...merged, list: { ...(merged.list ?? { columns: Object.keys(fields).slice(0, 6) }), pageSize: o.value } }; break;
        case 'defaultSort': merged = { ...merged, defaultSort: o.value }; break;
        case 'formSections': {
          if (!Array.isArray(o.value) || !o.value.length) break;
          const sections = o.value.map((s) => ({ ...s, fields: (Array.isArray(s.fields) ? s.fields : []).filter((n) => fieldOf(base, n)) }));
          merged = { ...merged, form: { ...(merged.form ?? {}), sections } };
          break;
        }
        case 'fieldOrder': {
          const ordered: Record<string, FieldDef> = {};
          for (const name of Array.isArray(o.value) ? o.value : []) { const f = fieldOf({ fields }, name); if (f) ordered[name] = f; }
          for (const [name, f] of Object.entries(fields)) if (!(name in ordered)) ordered[name] = f;
          // keep `fields` pointing at the live map so later field overrides land in it
          for (const k of Object.keys(fields)) delete fields[k];
          Object.assign(fields, ordered);
          break;
        }
      }
      continue;
    }
    const f = fieldOf(merged, o.field)!;
    if (o.property === 'hidden') {
      const { hidden, listHidden } = hiddenFlags(o.value);
      fields[o.field] = withFlag(withFlag(f, 'hidden', hidden), 'listHidden', listHidden);
    } else {
      fields[o.field] = { ...f, [o.property]: o.value };
    }
  }
  // a column hidden from lists is not a default column either
  if (merged.list?.columns.some((c) => fields[c]?.listHidden)) {
    merged = { ...merged, list: { ...merged.list, columns: merged.list.columns.filter((c) => !fields[c]?.listHidden) } };
  }
  return merged;
}
