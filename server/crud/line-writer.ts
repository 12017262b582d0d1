import type { Kysely } from 'kysely';
import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { RequestContext } from './access-policy.ts';
import type { Lookup } from './link-values.ts';
import { encodeColumns, withDefaults } from './record-values.ts';

type Row = Record<string, unknown>;

/** Rows per INSERT: well under SQLite's 32,766 and PostgreSQL's 65,535 parameters for any lines entity. */
const ROWS_PER_INSERT = 200;

/**
 * Replaces a document's lines: kept ids are updated, new ones inserted, missing ones deleted.
 * `fresh`: the document was inserted by this transaction, so it has no lines yet.
 */
export async function writeLines(trx: Kysely<any>, lookup: Lookup, entity: EntitySchema, id: number, input: Row, ctx: RequestContext, fresh = false): Promise<void> {
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type !== 'lines' || (!Array.isArray(input[name]) && !Array.isArray(input[`delete_${name}`]))) continue;
    if (!Array.isArray(input[name])) input = { ...input, [name]: [] };
    const child = lookup(f.entity!);
    const parentField = child.parent!.field;
    const lines = input[name] as Row[];
    const removals = Array.isArray(input[`delete_${name}`]) ? (input[`delete_${name}`] as number[]).map(Number) : null;
    const existing = fresh ? new Set<number>() : new Set((await trx.selectFrom(child.name).select('id').where(parentField, '=', id).execute()).map((r) => Number(r.id)));
    const kept = new Set<number>();
    for (const [i, line] of lines.entries()) {
      if (line.id === undefined) continue;
      const lineId = Number(line.id);
      if (!existing.has(lineId) || kept.has(lineId)) {
        throw new AppError('VALIDATION_FAILED', `${name}.${i}.id: line ${lineId} does not belong to this ${entity.name}`, { fields: [{ field: `${name}.${i}.id`, code: 'line', message: 'does not belong to this record' }] });
      }
      kept.add(lineId);
    }
    if (removals) {
      const foreign = removals.filter((x) => !existing.has(x));
      if (foreign.length) throw new AppError('VALIDATION_FAILED', `delete_${name}: lines ${foreign.join(', ')} do not belong to this ${entity.name}`, { fields: [{ field: `delete_${name}`, code: 'line', message: 'names lines that do not belong to this record' }] });
    }
    // removed lines go first, so a new line may take the place of a removed one under a unique index (one value per attribute)
    const gone = removals ?? [...existing].filter((x) => !kept.has(x));
    if (gone.length) await trx.deleteFrom(child.name).where('id', 'in', gone).execute();
    const now = new Date().toISOString();
    // with an explicit delete list, lines not mentioned are kept and new ones go after them
    const firstNo = removals ? existing.size + 1 : 1;
    // new lines go in as few INSERTs as their column sets allow (one, as a rule), in line order
    let batch: Row[] = [];
    let batchKey = '';
    const flush = async () => {
      for (let at = 0; at < batch.length; at += ROWS_PER_INSERT) await trx.insertInto(child.name).values(batch.slice(at, at + ROWS_PER_INSERT)).execute();
      batch = [];
    };
    for (const [i, line] of lines.entries()) {
      const values = { ...encodeColumns(child, withDefaults(child, line, false, ctx.userId)), ...(removals && line.id !== undefined ? {} : { line_no: firstNo + i }) };
      if (line.id !== undefined) {
        await flush();
        await trx.updateTable(child.name).set({ ...values, updated_at: now, updated_by: ctx.userId }).where('id', '=', Number(line.id)).execute();
      } else {
        const row = { ...values, [parentField]: id, created_at: now, updated_at: now, created_by: ctx.userId, updated_by: ctx.userId };
        // a multi-row INSERT names one column list: rows that set other columns start another
        const key = Object.keys(row).join(',');
        if (key !== batchKey) { await flush(); batchKey = key; }
        batch.push(row);
      }
    }
    await flush();
  }
}
