import type { TFunction } from 'i18next';
import type { EntitySchema, FieldDef } from '../../../engine/schema/schema-types.ts';
import { loc } from './i18n.ts';

/**
 * Schema labels through i18next: the server's language content carries
 * entity.<name>, entity.<name>.plural and field.<entity>.<field>, so an admin's
 * wording wins; the schema text is the fallback.
 */
export function entityLabel(t: TFunction, e: EntitySchema, plural = false): string {
  const key = plural ? `entity.${e.name}.plural` : `entity.${e.name}`;
  return t(key, { defaultValue: loc(plural ? e.labelPlural ?? e.label : e.label) });
}

export function fieldLabel(t: TFunction, entity: string, name: string, f: FieldDef, lang: string): string {
  return t(`field.${entity}.${name}`, { defaultValue: loc(f.label, lang) });
}
