import type { EntitySchema } from '../../../../engine/schema/schema-types.ts';

/** Link fields that others copy from (`fillFrom`): link name → [{field, from}]. */
export function fillFromMap(entity: EntitySchema): Record<string, Array<{ field: string; from: string }>> {
  const out: Record<string, Array<{ field: string; from: string }>> = {};
  for (const [name, f] of Object.entries(entity.fields)) {
    if (!f.fillFrom || !entity.fields[f.fillFrom.link]) continue;
    (out[f.fillFrom.link] ??= []).push({ field: name, from: f.fillFrom.field });
  }
  return out;
}
