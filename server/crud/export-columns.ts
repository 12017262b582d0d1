import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { describeField } from '../../engine/filter/filter-parser.ts';
import { formatIsoDate, formatIsoDateTime } from '../../engine/format/dates.ts';

/** What the export asks of the server: the entity behind a link, and whether the caller may read a field through one. */
export interface ExportLookup {
  entity(name: string): EntitySchema | undefined;
  canReadLinked(target: EntitySchema, field: string): boolean;
}

/** The field a dotted path ends on. */
export function fieldAt(entity: EntitySchema, path: string, lookup: ExportLookup): FieldDef | undefined {
  let e: EntitySchema | undefined = entity;
  let f: FieldDef | undefined;
  for (const step of path.split('.')) {
    f = e ? describeField(e, step) : undefined;
    e = f?.type === 'link' && f.entity ? lookup.entity(f.entity) : undefined;
  }
  return f;
}

/**
 * The columns of an export made for people (issue 38 §5): no internal ids, and a
 * link becomes what people see of it, the target's code and its display name
 * (`customer_id` → `customer_id.code`, `customer_id.name_th`). A link whose target
 * the caller may not read through a link is left out rather than shown as an id.
 */
export function peopleColumns(entity: EntitySchema, columns: string[], lookup: ExportLookup): string[] {
  const out = new Set<string>();
  for (const c of columns) {
    const f = fieldAt(entity, c, lookup);
    if (c === 'id' || c.endsWith('.id') || !f) continue;
    // a line's back-reference (source_line_id) is a number only the server reads
    if (f.type === 'integer' && /_id$/.test(c)) continue;
    if (f.type !== 'link') { out.add(c); continue; }
    const target = f.entity ? lookup.entity(f.entity) : undefined;
    if (!target) continue;
    const shown = [target.fields.code ? 'code' : null, f.displayField ?? target.titleField]
      .filter((n): n is string => !!n && !!target.fields[n] && target.fields[n]!.type !== 'link' && lookup.canReadLinked(target, n));
    for (const n of shown) out.add(`${c}.${n}`);
  }
  return [...out];
}

/** An enum value as its label in the language asked; a value the options do not know stays as it is. */
export function enumLabel(f: FieldDef | undefined, v: unknown, lang: 'th' | 'en'): unknown {
  if (f?.type !== 'enum' || v === null || v === undefined) return v;
  return f.options?.find((o) => o.value === v)?.label[lang] ?? v;
}

/** A value as CSV text for a person: enum labels, dates in the reader's calendar. */
export function presentForCsv(f: FieldDef | undefined, v: unknown, lang: 'th' | 'en'): unknown {
  if (typeof v !== 'string' || !f) return v;
  if (f.type === 'enum') return enumLabel(f, v, lang);
  return f.type === 'date' ? formatIsoDate(v, lang) : f.type === 'datetime' ? formatIsoDateTime(v, lang) : v;
}

/**
 * The download's name: the screen's title and the business day, in the reader's calendar
 * ("ใบวางบิล-2569-11-26.xlsx", "Billing notes-2026-11-26.xlsx"), with a Content-Disposition
 * carrying it as RFC 5987 UTF-8 and an ASCII fallback for old clients.
 */
export function exportFileName(entity: EntitySchema, lang: 'th' | 'en', today: string, ext: string): { name: string; disposition: string } {
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  const year = lang === 'th' ? y + 543 : y;
  const title = (entity.labelPlural?.[lang] ?? entity.label[lang]).replace(/[\\/:*?"<>|\u0000-\u001f]/g, ' ').trim();
  const name = `${title}-${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}.${ext}`;
  const fallback = `${entity.name}-${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}.${ext}`;
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  // filename* first: browsers take it wherever it stands, and a client that reads the first filename it finds gets the real name
  return { name, disposition: `attachment; filename*=UTF-8''${encoded}; filename="${fallback}"` };
}
