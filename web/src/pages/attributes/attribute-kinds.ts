/** The attribute pages of spec section 2 and the kind of attribute each lists (product_attribute.kind). */
export const KIND_OF_PAGE: Record<string, string> = {
  film_type: 'film_type', brand: 'brand', grade: 'grade', attr_1: 'attr_1', attr_2: 'attr_2', attribute: 'free',
};

/** "/brand/3/9" → "brand"; the attribute_option pages link to the page of their attribute's kind. */
export function pageOfPath(pathname: string): string {
  return pathname.split('/').filter(Boolean)[0] ?? 'attribute';
}

export function pageOfKind(kind: string): string {
  return Object.entries(KIND_OF_PAGE).find(([, k]) => k === kind)?.[0] ?? 'attribute';
}

export interface AttributeRow {
  id: number; code: string; name_th: string; name_en: string | null; kind: string; sort_order: number; is_active: boolean;
}
export interface OptionRow {
  id: number; attribute_id: number; code: string; name_th: string; name_en: string | null; sort_order: number; is_active: boolean;
}
/** One attribute of GET /api/product/attribute/list. */
export interface ListedAttribute {
  id: number; code: string; name_th: string; name_en: string | null; kind: string;
  options: { id: number; code: string; name_th: string; name_en: string | null; product_ids: number[] }[];
}

export function nameOf(r: { name_th: string; name_en: string | null }, lang: string): string {
  return lang === 'en' && r.name_en ? r.name_en : r.name_th;
}
