import type { EntitySchema, FieldDef } from '../../../engine/schema/schema-types.ts';
import { displayFieldOf } from './format-value.ts';

export interface ListColumn {
  name: string;
  field: FieldDef;
  /** The key of the cell value in a list row (link columns read the flat dotted key). */
  valueKey: string;
  /** What the server sorts by for this column. */
  sortKey: string;
  /** Links with a colorField: the key of the target's colour in a list row, and the colour when it is empty. */
  colorKey?: string;
  defaultColor?: string;
}

/** System columns a list may show (docs/schema-format.md section 5). */
export const SYSTEM_COLUMNS: Record<string, FieldDef> = {
  id: { type: 'integer', label: { th: 'รหัสระบบ', en: 'ID' } },
  created_at: { type: 'datetime', label: { th: 'สร้างเมื่อ', en: 'Created at' } },
  updated_at: { type: 'datetime', label: { th: 'แก้ไขเมื่อ', en: 'Updated at' } },
};

/** The colour of a link target's row: its colorField, else that field's default (a prospect priority without colour is #000). */
export function linkColor(field: FieldDef, target: EntitySchema | undefined, value: unknown): string | undefined {
  if (typeof value === 'string' && value) return value;
  const d = field.colorField ? target?.fields[field.colorField]?.default : undefined;
  return typeof d === 'string' && d.startsWith('#') ? d : undefined;
}

/** One column by name: a field, a system column, or null. */
export function columnFor(entity: EntitySchema, related: Record<string, EntitySchema>, name: string): ListColumn | null {
  const field = entity.fields[name] ?? SYSTEM_COLUMNS[name];
  if (!field || field.type === 'lines' || field.type === 'json') return null;
  if (field.type === 'link') {
    const target = related[field.entity!];
    const shown = displayFieldOf(field, target);
    const key = target ? `${name}.${shown}` : name;
    const col: ListColumn = { name, field, valueKey: key, sortKey: key };
    if (field.colorField && target?.fields[field.colorField]) {
      col.colorKey = `${name}.${field.colorField}`;
      const d = target.fields[field.colorField]!.default;
      if (typeof d === 'string') col.defaultColor = d;
    }
    return col;
  }
  return { name, field, valueKey: name, sortKey: name };
}

/** Columns the user can choose from: every field with a column, default ones first. */
export function listColumns(entity: EntitySchema, related: Record<string, EntitySchema>): ListColumn[] {
  const defaults = entity.list?.columns ?? Object.keys(entity.fields).slice(0, 6);
  const names = [...defaults, ...Object.keys(entity.fields).filter((n) => !defaults.includes(n))];
  const out: ListColumn[] = [];
  for (const name of names) {
    // page settings: a field hidden from lists is not offered as a column at all
    if (entity.fields[name]?.listHidden) continue;
    const col = columnFor(entity, related, name);
    if (col) out.push(col);
  }
  return out;
}

export function defaultHidden(entity: EntitySchema, cols: ListColumn[]): string[] {
  const defaults = new Set(entity.list?.columns ?? cols.slice(0, 6).map((c) => c.name));
  return cols.filter((c) => !defaults.has(c.name)).map((c) => c.name);
}

/** The `fields` parameter: id, the visible columns, and the display field of each visible link. */
export function listFields(cols: ListColumn[], hidden: string[]): string[] {
  const f = new Set(['id']);
  for (const c of cols) {
    if (hidden.includes(c.name)) continue;
    f.add(c.name);
    if (c.valueKey !== c.name) f.add(c.valueKey);
    if (c.colorKey) f.add(c.colorKey);
  }
  return [...f];
}

export type FilterKind = 'text' | 'enum' | 'boolean' | 'link' | 'range-number' | 'range-date';

export function filterKind(field: FieldDef): FilterKind | null {
  switch (field.type) {
    case 'enum': return 'enum';
    case 'boolean': return 'boolean';
    case 'link': return 'link';
    case 'integer': case 'decimal': case 'money': return 'range-number';
    case 'date': case 'datetime': return 'range-date';
    case 'json': case 'lines': return null;
    default: return 'text';
  }
}

type Cond = Record<string, unknown>;

/** Sets (or, with an empty value, removes) one field's condition in a list filter. */
export function withFieldFilter(filter: Record<string, unknown>, name: string, cond: Cond | null): Record<string, unknown> {
  const next = { ...filter };
  const clean = cond ? Object.fromEntries(Object.entries(cond).filter(([, v]) => v !== undefined && v !== null && v !== '')) : {};
  if (Object.keys(clean).length === 0) delete next[name];
  else next[name] = clean;
  return next;
}

export function fieldCond(filter: Record<string, unknown>, name: string): Cond {
  return (filter[name] as Cond | undefined) ?? {};
}

/**
 * A filter through a lines field ("attributes.option_id": products with a line of that option):
 * the lines entity and its field, or null for a plain name.
 */
export function linesFilterField(entity: EntitySchema, related: Record<string, EntitySchema>, name: string): { lines: string; child: EntitySchema; rest: string; field: FieldDef } | null {
  const [head, rest, ...more] = name.split('.');
  const lines = head ? entity.fields[head] : undefined;
  if (!rest || more.length || lines?.type !== 'lines') return null;
  const child = related[lines.entity!];
  const field = child && Object.hasOwn(child.fields, rest) ? child.fields[rest] : undefined;
  return child && field ? { lines: head!, child, rest, field } : null;
}
