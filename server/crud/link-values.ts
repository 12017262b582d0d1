import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { AppError } from '../errors/app-error.ts';
import { describeErrors } from './record-values.ts';

type Row = Record<string, unknown>;
export type Lookup = (name: string) => EntitySchema;
/**
 * Reads one field of a linked row as the caller may see it: undefined when the
 * caller may not read that entity or field, or the row is outside their scope,
 * archived or absent; the three look the same, so nothing tells which ids exist.
 */
export type LinkedRead = (target: EntitySchema, id: number, field: string) => Promise<{ value: unknown } | undefined>;
/** Which of these ids of one entity the caller may see (the same rule as LinkedRead of `id`), in one query. */
export type LinkedIds = (target: EntitySchema, ids: number[]) => Promise<ReadonlySet<number>>;

/** Copies values from linked rows (fillFrom) for fields the request did not set itself, through the caller's read rights. */
export async function applyFills(read: LinkedRead, lookup: Lookup, entity: EntitySchema, input: Row, sent: Row): Promise<void> {
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.fillFrom || name in sent || !(f.fillFrom.link in sent)) continue;
    const linkId = input[f.fillFrom.link];
    if (linkId === null || linkId === undefined) { input[name] = null; continue; }
    const target = lookup(entity.fields[f.fillFrom.link]!.entity!);
    input[name] = (await read(target, Number(linkId), f.fillFrom.field))?.value ?? null;
  }
}

/**
 * Link values must point at rows the caller can see (existing, not archived,
 * inside their scope), checked before writing for a precise message. `only`
 * limits the check to the header links a write changes: an update that keeps
 * a link is not judged again on it.
 */
export async function checkLinks(visible: LinkedIds, lookup: Lookup, entity: EntitySchema, input: Row, only: ReadonlySet<string> | null = null): Promise<void> {
  // every link of the header and its lines, asked per target entity in one query (a 50-line document: one for its products)
  const wanted: { field: string; target: EntitySchema; id: unknown }[] = [];
  const collect = (e: EntitySchema, row: Row, prefix: string, limit: ReadonlySet<string> | null) => {
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.type !== 'link' || row[name] === null || row[name] === undefined || (limit && !limit.has(name))) continue;
      wanted.push({ field: `${prefix}${name}`, target: lookup(f.entity!), id: row[name] });
    }
  };
  collect(entity, input, '', only);
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !Array.isArray(input[name]) || (only && !only.has(name))) continue;
    const child = lookup(f.entity!);
    for (const [i, line] of (input[name] as Row[]).entries()) collect(child, line, `${name}.${i}.`, null);
  }
  const byTarget = new Map<EntitySchema, Set<number>>();
  for (const w of wanted) {
    const id = Number(w.id);
    if (Number.isSafeInteger(id)) (byTarget.get(w.target) ?? byTarget.set(w.target, new Set()).get(w.target)!).add(id);
  }
  const seen = new Map<EntitySchema, ReadonlySet<number>>();
  for (const [target, ids] of byTarget) seen.set(target, await visible(target, [...ids]));
  const errors: FieldError[] = wanted.filter((w) => !seen.get(w.target)?.has(Number(w.id)))
    .map((w) => ({ field: w.field, code: 'link', message: `points to ${/^[aeiou]/i.test(w.target.label.en) ? 'an' : 'a'} ${w.target.label.en} that does not exist or that you cannot see (id ${w.id})` }));
  if (errors.length) throw new AppError('VALIDATION_FAILED', describeErrors(errors), { fields: errors });
}
