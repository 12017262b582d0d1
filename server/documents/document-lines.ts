import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import { toScaledInteger } from '../../engine/validation/value-limits.ts';
import { scaleOf } from '../db/field-codec.ts';
import type { EntityService } from '../crud/entity-service.ts';

/** A document's lines: the lines field, its child entity and the child's parent field (shared by every document rule). */
export interface LinesOf {
  field: string;
  entity: EntitySchema;
  parentField: string;
}

export function linesOf(service: EntityService, entity: EntitySchema): LinesOf {
  const field = entity.document!.lines!;
  const child = service.entity(fieldOf(entity, field)!.entity!);
  return { field, entity: child, parentField: child.parent!.field };
}

/** A line field's value as the scaled integer it is stored as (exact sums and comparisons). */
export function scaled(entity: EntitySchema, field: string, value: unknown): number {
  const f = fieldOf(entity, field);
  return value === null || value === undefined ? 0 : toScaledInteger(Number(value), f ? scaleOf(f) : 0);
}

export function unscaled(entity: EntitySchema, field: string, value: number): number {
  const f = fieldOf(entity, field);
  const s = f ? scaleOf(f) : 0;
  return Number((value / 10 ** s).toFixed(s));
}
