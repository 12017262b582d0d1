import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { fieldOf } from '../../engine/schema/schema-types.ts';
import type { EntityService } from '../crud/entity-service.ts';

/** A document's lines field, its lines entity and the column that points back: a module of its own so posting and status-follow do not import each other. */
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
