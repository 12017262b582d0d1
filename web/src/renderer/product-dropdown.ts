import type { SiteSettings } from '../core/app-data.ts';

/** The site setting that decides what a document's product picker shows (spec section 9). */
const SETTING_OF: Record<string, string> = {
  quotation: 'product_dropdown_quotation', sales_order: 'product_dropdown_so', delivery_order: 'product_dropdown_do',
  purchase_order: 'product_dropdown_po', goods_receipt: 'product_dropdown_gr', internal_product_transfer: 'product_dropdown_ipt',
};

/**
 * The product fields a document's product picker shows, from the site setting:
 * `code_name` (the default) "P001 ฟิล์มยืด", `name` or `code`. Null for a
 * picker the setting does not govern (another document, another target).
 */
export function productLabelFields(documentEntity: string | undefined, target: string | undefined, settings: SiteSettings | null, lang: string): string[] | null {
  if (target !== 'product' || !documentEntity || !SETTING_OF[documentEntity]) return null;
  const mode = String((settings as Record<string, unknown> | null)?.[SETTING_OF[documentEntity]!] ?? 'code_name');
  const name = lang === 'en' ? 'name_en' : 'name_th';
  if (mode === 'code') return ['code'];
  if (mode === 'name') return [name];
  return ['code', name];
}
