import type { EntitySchema } from '../../engine/schema/schema-types.ts';
import { AppError } from '../errors/app-error.ts';
import type { ServiceCore } from './service-core.ts';
import { uniqueFields, uniqueFieldsOfLines, uniqueLabels } from './record-values.ts';

/** A write's failure as the catalogue names it: a unique index or a foreign key the database refused; anything else as it was. */
export function constraintError(core: ServiceCore, entity: EntitySchema, err: unknown): unknown {
  if (err instanceof AppError) return err;
  const unique = core.db.adapter.uniqueViolation(err);
  if (unique) {
    const fields = uniqueFields(entity, unique.index) ?? uniqueFieldsOfLines(core.registry, entity, unique.index);
    const names = fields?.join(', ') ?? 'a unique field';
    return new AppError('CONFLICT', `Another ${entity.label.en} already has this ${names}`, {
      fields: (fields ?? []).map((field) => ({ field, code: 'unique', message: 'is already used by another record' })),
    }, { entity: entity.label, fields: uniqueLabels(entity, fields) });
  }
  if (core.db.adapter.isForeignKeyViolation(err)) {
    return new AppError('IN_USE', `This ${entity.name} is still used by other records, so it cannot be removed; archive it or remove those records first`, undefined, { entity: entity.label });
  }
  return err;
}
