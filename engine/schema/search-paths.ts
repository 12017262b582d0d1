import type { EntitySchema, FieldDef } from './schema-types.ts';

/**
 * What a list's `search=` matches, per `searchFields` entry: a text field by
 * "contains", a number field (money, decimal, integer) by an exact amount, and a
 * field of a linked row (`customer_id.name_th`, one step) the same way through
 * the link. Shared by the loader (which refuses other entries) and the server.
 */
const TEXT_TYPES = new Set(['string', 'text', 'email', 'phone', 'tax_id', 'url']);
const NUMBER_TYPES = new Set(['money', 'decimal', 'integer']);

export type SearchMatch = 'text' | 'number';

export function searchMatch(f: FieldDef | undefined): SearchMatch | null {
  if (!f) return null;
  if (TEXT_TYPES.has(f.type)) return 'text';
  return NUMBER_TYPES.has(f.type) ? 'number' : null;
}

export interface SearchPath { path: string[]; field: FieldDef; match: SearchMatch; target?: EntitySchema }

/** The entity's searchFields resolved; entries that do not resolve (an override removed a field) are left out. */
export function searchPaths(entity: EntitySchema, names: readonly string[], lookup: (name: string) => EntitySchema | undefined): SearchPath[] {
  const out: SearchPath[] = [];
  for (const name of names) {
    const path = name.split('.');
    const head = entity.fields[path[0]!];
    if (path.length === 1) {
      const match = searchMatch(head);
      if (match) out.push({ path, field: head!, match });
      continue;
    }
    const target = head?.type === 'link' && path.length === 2 ? lookup(head.entity!) : undefined;
    const field = target?.fields[path[1]!];
    const match = searchMatch(field);
    if (target && match) out.push({ path, field: field!, match, target });
  }
  return out;
}

/** The loader's check of one searchFields entry: why it is refused, or null. */
export function searchFieldProblem(entity: EntitySchema, name: string, byName: ReadonlyMap<string, EntitySchema>): string | null {
  const path = name.split('.');
  const head = entity.fields[path[0]!];
  if (!head) return `"${path[0]}" is not a field`;
  if (path.length === 1) return searchMatch(head) ? null : `"${name}" is a ${head.type} field; search text, email, phone, tax id or number fields`;
  if (path.length > 2) return `"${name}" goes more than one link deep`;
  if (head.type !== 'link') return `"${path[0]}" is not a link field`;
  const target = byName.get(head.entity!);
  if (!target) return null; // the link's own check reports the unknown entity
  const field = target.fields[path[1]!];
  if (!field) return `"${path[1]}" is not a field of ${target.name}`;
  return searchMatch(field) ? null : `"${name}" is a ${field.type} field; search text, email, phone, tax id or number fields`;
}

/**
 * The number a search text names, if it is one, with its count of decimals: "21,400",
 * "21400.00" and "฿ 21,400.5" are amounts; a code like "C001" or a date is not.
 */
export function searchAmount(text: string): { value: number; decimals: number } | null {
  const s = text.replace(/[฿,\s]/g, '');
  const m = /^-?\d{1,15}(?:\.(\d{1,4}))?$/.exec(s);
  if (!m) return null;
  // "21,400.00" asks for 21400: trailing zeros do not make it more precise
  return { value: Number(s), decimals: (m[1] ?? '').replace(/0+$/, '').length };
}
