import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { softDeleteColumn } from '../../engine/schema/schema-types.ts';
import type { FieldError } from '../../engine/errors/error-catalogue.ts';
import { decodeRow } from '../db/field-codec.ts';
import { AppError } from '../errors/app-error.ts';
import { describeErrors } from './record-values.ts';

type Row = Record<string, unknown>;
export type Lookup = (name: string) => EntitySchema;

/** Copies values from linked rows (fillFrom) for fields the request did not set itself. */
export async function applyFills(trx: Kysely<any>, lookup: Lookup, entity: EntitySchema, input: Row, sent: Row): Promise<void> {
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.fillFrom || name in sent || !(f.fillFrom.link in sent)) continue;
    const linkId = input[f.fillFrom.link];
    if (linkId === null || linkId === undefined) { input[name] = null; continue; }
    const target = lookup(entity.fields[f.fillFrom.link]!.entity!);
    const row = await trx.selectFrom(target.name).select(f.fillFrom.field).where('id', '=', Number(linkId)).executeTakeFirst();
    const source = target.fields[f.fillFrom.field]!;
    input[name] = row ? decodeRow(new Map([[f.fillFrom.field, source]]), row, null)[f.fillFrom.field] : null;
  }
}

/** Link values must point at rows that exist (and are not archived), checked before writing for a precise message. */
export async function checkLinks(trx: Kysely<any>, lookup: Lookup, entity: EntitySchema, input: Row): Promise<void> {
  const errors: FieldError[] = [];
  const check = async (e: EntitySchema, row: Row, prefix: string) => {
    for (const [name, f] of Object.entries(e.fields)) {
      if (f.type !== 'link' || row[name] === null || row[name] === undefined) continue;
      const target = lookup(f.entity!);
      const soft = softDeleteColumn(target);
      let q = trx.selectFrom(target.name).select('id').where('id', '=', Number(row[name]));
      if (soft) q = q.where(soft, '=', 0);
      if (!(await q.executeTakeFirst())) errors.push({ field: `${prefix}${name}`, code: 'link', message: `points to a ${target.name} that does not exist (id ${row[name]})` });
    }
  };
  await check(entity, input, '');
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || !Array.isArray(input[name])) continue;
    const child = lookup(f.entity!);
    for (const [i, line] of (input[name] as Row[]).entries()) await check(child, line, `${name}.${i}.`);
  }
  if (errors.length) throw new AppError('VALIDATION_FAILED', describeErrors(errors), { fields: errors });
}
