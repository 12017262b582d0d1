import type { EntitySchema, FieldDef } from '../../../engine/schema/schema-types.ts';
import type { UploadedFile } from '../core/file-api.ts';

const CATEGORY = /^[a-z0-9_-]{1,40}$/;

/** The upload category of a file/image field: a category named in its `accept`, else the entity's name. */
export function uploadCategoryOf(entity: EntitySchema, field: FieldDef): string {
  const named = (field.accept ?? []).find((a) => CATEGORY.test(a));
  return named ?? (CATEGORY.test(entity.name) ? entity.name : 'default');
}

/** The entity's first file or image field. */
export function fileFieldOf(entity: EntitySchema): string | null {
  return Object.entries(entity.fields).find(([, f]) => (f.type === 'file' || f.type === 'image') && !f.readOnly && !f.hidden)?.[0] ?? null;
}

const TEXTUAL = new Set(['string', 'text']);
const NUMERIC = new Set(['integer', 'decimal']);

/**
 * Fields of the entity named like the upload answer's (file_name, mime_type,
 * size), with that answer's values: an upload fills them, so a record can keep
 * the original name and size next to the file id.
 */
export function fileMetadataValues(entity: EntitySchema, file: UploadedFile): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const put = (name: keyof UploadedFile, ok: Set<string>) => {
    const f = entity.fields[name];
    if (f && ok.has(f.type) && !f.readOnly) {
      const v = file[name];
      out[name] = typeof v === 'string' && f.maxLength ? v.slice(0, f.maxLength) : v;
    }
  };
  put('file_name', TEXTUAL);
  put('mime_type', TEXTUAL);
  put('size', NUMERIC);
  return out;
}
