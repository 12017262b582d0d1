import type { FormSection } from '../../../../engine/schema/schema-types.ts';
import type { LocalizedText } from '../../../../engine/schema/localized-text.ts';
import type { FieldSettings, PageSettings } from '../../../../engine/schema/page-setting-types.ts';

export type { FieldSettings, PageSettings };

export interface FieldInfo {
  name: string;
  type: string;
  entity?: string;
  options?: { value: string; label: LocalizedText }[];
  file: FieldSettings;
  merged: FieldSettings;
  overridden: string[];
  locked: { readOnly: boolean; required: boolean };
}
export interface PageInfo {
  entity: string;
  kind: string;
  /** the documents whose lines pick a product: where their picker settings live */
  productPicker: { entity: string; field: string } | null;
  page: { file: PageSettings; merged: PageSettings; overridden: string[] };
  fields: FieldInfo[];
}

/** What the editor changes: every setting of every field, and the page's, starting from the merged values. */
export interface Draft {
  fields: Record<string, FieldSettings>;
  page: PageSettings;
}

export function draftFrom(info: PageInfo): Draft {
  return {
    fields: Object.fromEntries(info.fields.map((f) => [f.name, structuredClone(f.merged)])),
    page: structuredClone(info.page.merged),
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The settings of a field that differ from its schema file (what the "changed" mark shows). */
export function changedProps(draft: FieldSettings, file: FieldSettings): (keyof FieldSettings)[] {
  return (Object.keys(file) as (keyof FieldSettings)[]).filter((k) => !same(draft[k], file[k]));
}

export function changedPageProps(draft: PageSettings, file: PageSettings): (keyof PageSettings)[] {
  return (Object.keys(file) as (keyof PageSettings)[]).filter((k) => !same(draft[k], file[k]));
}

/**
 * The PUT body: only what differs from the file is sent (the server stores
 * nothing for a value equal to the file's, so the page keeps following it).
 */
export function bodyFrom(draft: Draft, info: PageInfo): { fields: Record<string, Partial<FieldSettings>>; page: Partial<PageSettings> } {
  const fields: Record<string, Partial<FieldSettings>> = {};
  for (const f of info.fields) {
    const d = draft.fields[f.name];
    if (!d) continue;
    const changed = changedProps(d, f.file);
    if (changed.length) fields[f.name] = Object.fromEntries(changed.map((k) => [k, d[k]]));
  }
  const page = Object.fromEntries(changedPageProps(draft.page, info.page.file).map((k) => [k, draft.page[k]])) as Partial<PageSettings>;
  return { fields, page };
}

/** A list with the item at `i` moved by `delta` places (clamped at the ends). */
export function moved<T>(list: readonly T[], i: number, delta: number): T[] {
  const j = Math.max(0, Math.min(list.length - 1, i + delta));
  if (i === j || i < 0 || i >= list.length) return [...list];
  const out = [...list];
  const [item] = out.splice(i, 1);
  out.splice(j, 0, item!);
  return out;
}

/** A default as typed in the editor, as the field's value: numbers for numeric fields, null when empty. */
export function parseDefault(type: string, text: string): unknown {
  const s = text.trim();
  if (s === '') return null;
  if (s === '$NOW' || s === '$CURRENT_USER') return s;
  if (type === 'integer' || type === 'decimal' || type === 'money' || type === 'link') {
    const n = Number(s);
    return Number.isFinite(n) ? n : s; // left as typed: the server answers why it is not a number
  }
  return text;
}

export function defaultText(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** Which section each field is in ('' = none: the form shows it after the sections). */
export function sectionOf(sections: FormSection[], field: string): string {
  return sections.find((s) => s.fields.includes(field))?.key ?? '';
}

/** Moves a field into a section (or out of all of them with ''), appended at the section's end. */
export function assignSection(sections: FormSection[], field: string, key: string): FormSection[] {
  return sections.map((s) => {
    const without = s.fields.filter((f) => f !== field);
    return { ...s, fields: s.key === key ? [...without, field] : without };
  });
}
