import type { SiteSettings } from '../core/app-data.ts';

/**
 * The product fields a document's product picker shows, from the site setting:
 * `code_name` (the default) "P001 ฟิล์มยืด", `name` or `code`. The setting is the
 * lines field's `pickerSetting` in the document's schema, and it governs the lines' `product_id` (docs/schema-format.md,
 * "Links and lines"). Null for a picker no setting governs (lines without one, another field).
 */
export function productLabelFields(pickerSetting: string | undefined, field: string, settings: SiteSettings | null, lang: string): string[] | null {
  if (field !== 'product_id' || !pickerSetting) return null;
  const mode = String((settings as Record<string, unknown> | null)?.[pickerSetting] ?? 'code_name');
  const name = lang === 'en' ? 'name_en' : 'name_th';
  if (mode === 'code') return ['code'];
  if (mode === 'name') return [name];
  return ['code', name];
}

/**
 * What a picker lists its choices by: the first field its options show, so they read in order
 * (the product picker "P001 ฟิล์มยืด", "P002 …" by code, issue 48 §4); the display field otherwise.
 */
export function pickerSort(displayField: string, labelFields: string[] | undefined): string {
  return labelFields?.[0] ?? displayField;
}
