import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf, linkFilterParent, linkFilterSource } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { toDb } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import { describeErrors } from './record-values.ts';
import type { Lookup } from './link-values.ts';

type Row = Record<string, unknown>;

const empty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Links with a `linkFilter` (a prospect's contact must belong to its company)
 * must point at a row that matches it, as the form's picker offers. Checked
 * when the link or a field it depends on changes, so older rows stay editable.
 * `row` is the record as it will be stored; `before` the stored one on updates.
 */
export async function checkLinkFilters(trx: Kysely<any>, lookup: Lookup, entity: EntitySchema, row: Row, before: Row | null = null): Promise<void> {
  const errors: FieldError[] = [];
  // a line's "$parent.<field>" reads the document as it will be stored; a changed parent field rechecks every line
  const parentChanged = (f: string) => !before || before[f] !== row[f];
  const check = async (e: EntitySchema, r: Row, old: Row | null, prefix: string, parent: Row | null = null) => {
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.type !== 'link' || !f.linkFilter || empty(r[name])) continue;
      const sources = Object.values(f.linkFilter).map(linkFilterSource).filter((s): s is string => s !== null);
      const ups = Object.values(f.linkFilter).map(linkFilterParent).filter((s): s is string => s !== null);
      if (old && [name, ...sources].every((n) => old[n] === r[n]) && !ups.some(parentChanged)) continue;
      const target = lookup(f.entity!);
      let q = trx.selectFrom(target.name).select('id').where('id', '=', Number(r[name]));
      let other: string | null = null;
      let otherUp: string | null = null;
      for (const [key, v] of Object.entries(f.linkFilter)) {
        const src = linkFilterSource(v);
        const up = linkFilterParent(v);
        const value = up !== null ? parent?.[up] : src === null ? v : r[src];
        if (empty(value)) continue; // nothing chosen yet: no restriction
        if (src !== null) other ??= src;
        if (up !== null) otherUp ??= up;
        const tf = fieldOf(target, key);
        const db = (x: unknown) => (tf ? toDb(tf, x) : x) as never;
        // a list of constants is "any of them" (a receipt line's bill: issued or partially paid)
        q = Array.isArray(value) ? q.where(key, 'in', value.map(db)) : q.where(key, '=', db(value));
      }
      if (!(await q.executeTakeFirst())) {
        const label = other ? e.fields[other]?.label : otherUp ? entity.fields[otherUp]?.label : undefined;
        other ??= otherUp;
        errors.push({
          field: `${prefix}${name}`, code: 'link_filter',
          message: `does not belong to the chosen ${other ?? 'record'} (${target.name} ${String(r[name])})`,
          ...(label ? { params: { other: label } } : {}),
        });
      }
    }
  };
  await check(entity, row, before, '');
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !Array.isArray(row[name])) continue;
    const child = lookup(f.entity!);
    const stored = Array.isArray(before?.[name]) ? (before![name] as Row[]) : [];
    for (const [i, line] of (row[name] as Row[]).entries()) {
      // a kept line is compared with its stored self; a new line is checked in full
      const old = line.id !== undefined ? stored.find((s) => s.id === line.id) ?? null : null;
      await check(child, line, old, `${name}.${i}.`, row);
    }
  }
  if (errors.length) throw new AppError('VALIDATION_FAILED', describeErrors(errors), { fields: errors });
}
