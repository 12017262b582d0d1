import type { EntitySchema, FieldDef } from '../../engine/schema/schema-types.ts';
import { hasColumn } from '../../engine/schema/schema-types.ts';
import { toDb } from '../db/field-codec.ts';
import type { Lookup } from './link-values.ts';

type Row = Record<string, unknown>;

function sameValue(f: FieldDef, a: unknown, b: unknown): boolean {
  const x = toDb(f, a ?? null);
  const y = toDb(f, b ?? null);
  return x === y || (x !== null && y !== null && JSON.stringify(x) === JSON.stringify(y));
}

function sameLines(child: EntitySchema, stored: Row[], sent: Row[]): boolean {
  if (stored.length !== sent.length) return false;
  return sent.every((line, i) => {
    const old = stored[i]!;
    if (line.id !== undefined && Number(line.id) !== Number(old.id)) return false;
    return Object.entries(child.fields).every(([n, f]) => !hasColumn(f) || f.readOnly || !(n in line) || sameValue(f, line[n], old[n]));
  });
}

/**
 * The fields whose stored value a write really changes. Rules about who may
 * change a field judge this, not the body: a form that sends a record back
 * whole, unchanged fields included, changes only what differs. On create
 * (`before` null) a field counts when it is given a value other than empty.
 */
export function changedFields(entity: EntitySchema, before: Row | null, input: Row, lookup: Lookup): string[] {
  const out: string[] = [];
  for (const [name, f] of Object.entries(entity.fields)) {
    if (f.type === 'lines') {
      const sent = input[name];
      const removals = input[`delete_${name}`];
      if (Array.isArray(removals) && removals.length) { out.push(name); continue; }
      if (!Array.isArray(sent)) continue;
      if (!before) { if (sent.length) out.push(name); continue; }
      if (!sameLines(lookup(f.entity!), (before[name] as Row[] | undefined) ?? [], sent as Row[])) out.push(name);
      continue;
    }
    if (!(name in input)) continue;
    if (before ? !sameValue(f, input[name], before[name]) : toDb(f, input[name]) !== null) out.push(name);
  }
  return out;
}
