import type { FieldDef } from '../../../engine/schema/schema-types.ts';

/**
 * Is the field switched on by the site settings (schema key `enabledBy`: one
 * setting, or several that must all be on)? Unknown settings (not loaded yet)
 * leave it shown. Its own small module: lists read it without the form's code.
 */
export function fieldEnabled(field: FieldDef | undefined, settings: Record<string, unknown> | null | undefined): boolean {
  if (!field?.enabledBy || !settings) return true;
  return [field.enabledBy].flat().every((name) => { const v = settings[name]; return v === true || v === 1 || v === '1'; });
}
