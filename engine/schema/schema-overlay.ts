import { fieldOf, type EntitySchema, type FieldDef, type LocalizedText } from './schema-types.ts';

/**
 * A runtime override an admin stores in the database (table schema_override).
 * Only presentation and entry rules can be overridden: never a column's type,
 * so an override can never require a database change.
 */
export type SchemaOverride =
  | { entity: string; field: string; property: 'label'; value: LocalizedText }
  | { entity: string; field: string; property: 'hidden' | 'required' | 'readOnly'; value: boolean }
  | { entity: string; field: string; property: 'default'; value: unknown }
  | { entity: string; field: null; property: 'label'; value: LocalizedText }
  | { entity: string; field: null; property: 'listColumns'; value: string[] }
  | { entity: string; field: null; property: 'fieldOrder'; value: string[] };

export const OVERRIDABLE_FIELD_PROPERTIES = ['label', 'hidden', 'required', 'readOnly', 'default'] as const;

/** Returns a new schema with the overrides applied; the file schema is never mutated. */
export function applyOverrides(base: EntitySchema, overrides: readonly SchemaOverride[]): EntitySchema {
  const mine = overrides.filter((o) => o.entity === base.name);
  if (mine.length === 0) return base;
  const fields: Record<string, FieldDef> = { ...base.fields };
  let merged: EntitySchema = { ...base, fields };
  for (const o of mine) {
    if (o.field === null) {
      if (o.property === 'label') merged = { ...merged, label: o.value };
      else if (o.property === 'listColumns') {
        const cols = o.value.filter((c) => Object.hasOwn(fields, c) || c === 'id' || c.includes('.'));
        if (cols.length) merged = { ...merged, list: { ...(merged.list ?? { columns: [] }), columns: cols } };
      } else if (o.property === 'fieldOrder') {
        const ordered: Record<string, FieldDef> = {};
        for (const name of o.value) { const f = fieldOf({ fields }, name); if (f) ordered[name] = f; }
        for (const [name, f] of Object.entries(fields)) if (!(name in ordered)) ordered[name] = f;
        merged = { ...merged, fields: ordered };
      }
      continue;
    }
    const f = fieldOf(merged, o.field);
    if (!f) continue; // an override for a field that was since removed from the file is ignored
    merged.fields[o.field] = { ...f, [o.property]: o.value };
  }
  return merged;
}
