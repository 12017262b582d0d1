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
export async function checkLinks(read: LinkedRead, lookup: Lookup, entity: EntitySchema, input: Row, only: ReadonlySet<string> | null = null): Promise<void> {
  const errors: FieldError[] = [];
  const check = async (e: EntitySchema, row: Row, prefix: string, limit: ReadonlySet<string> | null) => {
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.type !== 'link' || row[name] === null || row[name] === undefined || (limit && !limit.has(name))) continue;
      const target = lookup(f.entity!);
      if (!(await read(target, Number(row[name]), 'id'))) {
        errors.push({ field: `${prefix}${name}`, code: 'link', message: `points to a ${target.label.en} that does not exist or that you cannot see (id ${row[name]})` });
      }
    }
  };
  await check(entity, input, '', only);
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !Array.isArray(input[name]) || (only && !only.has(name))) continue;
    const child = lookup(f.entity!);
    for (const [i, line] of (input[name] as Row[]).entries()) await check(child, line, `${name}.${i}.`, null);
  }
  if (errors.length) throw new AppError('VALIDATION_FAILED', describeErrors(errors), { fields: errors });
}
