/** The tabs of the page-setting editor; /page_setting/{pageKey}/{tab}. `picker` only for documents whose lines pick a product. */
export const TABS = ['fields', 'list', 'form', 'picker'] as const;
export type Tab = (typeof TABS)[number];
