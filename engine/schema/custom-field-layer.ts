import type { EntitySchema, FieldDef, FieldType } from './schema-types.ts';

/**
 * Custom fields (Frappe's Custom Field): columns an administrator adds to an
 * entity at run time, stored in the table custom_field. They are a layer
 * between the schema file and the runtime overrides: the registry merges them
 * first, so overrides (labels, hidden, list columns) apply to them as well.
 */
export interface CustomField {
  entity: string;
  name: string;
  field: FieldDef;
}

/** Types a custom field may have: one plain column each, nothing that needs another table or a foreign key. */
export const CUSTOM_FIELD_TYPES = [
  'string', 'text', 'integer', 'decimal', 'money', 'boolean', 'date', 'datetime', 'enum', 'email', 'url', 'phone', 'color',
] as const satisfies readonly FieldType[];

export const CUSTOM_SECTION_KEY = 'custom_fields';
const TEXT_TYPES = new Set<FieldType>(['string', 'text', 'email', 'url', 'phone']);

/** A custom field's name: cf_ then lower-case letters, digits and _, so it never clashes with a field a schema file adds later. */
export const CUSTOM_FIELD_NAME = /^cf_[a-z0-9_]{1,40}$/;

/** Whether the list's free-text search reads this field. */
export function isTextType(type: FieldType): boolean {
  return TEXT_TYPES.has(type);
}

/**
 * The schema with its custom fields: appended to the fields, in a form section of their own,
 * offered as list filters, and read by the search when they hold text. The file schema is not mutated.
 */
export function applyCustomFields(base: EntitySchema, custom: readonly CustomField[]): EntitySchema {
  const mine = custom.filter((c) => c.entity === base.name && !Object.hasOwn(base.fields, c.name));
  if (mine.length === 0) return base;
  const fields: Record<string, FieldDef> = { ...base.fields };
  for (const c of mine) fields[c.name] = c.field;
  const names = mine.map((c) => c.name);
  const merged: EntitySchema = { ...base, fields };
  if (base.form) {
    merged.form = {
      ...base.form,
      sections: [...base.form.sections, { key: CUSTOM_SECTION_KEY, label: { th: 'ฟิลด์ที่เพิ่มเอง', en: 'Custom fields' }, fields: names, columns: 2 }],
    };
  }
  if (base.list) merged.list = { ...base.list, filters: [...(base.list.filters ?? []), ...names.filter((n) => fields[n]!.type !== 'text')] };
  const search = mine.filter((c) => isTextType(c.field.type)).map((c) => c.name);
  if (search.length) merged.searchFields = [...(base.searchFields ?? []), ...search];
  return merged;
}
