import type { MenuItem } from '../menu/menu-types.ts';
import { menuGroups } from './language-content.ts';

type Submenu = MenuItem['submenu'][number];

/** The attribute pages of spec section 2, under the products' group, for roles that may view product attributes. */
export const ATTRIBUTE_MENU: Submenu[] = [
  { keyAction: 'product_attribute', label: { th: 'ประเภทฟิล์ม', en: 'Film types' }, path: '/film_type', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'แบรนด์', en: 'Brands' }, path: '/brand', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'เกรด', en: 'Grades' }, path: '/grade', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'คุณสมบัติ 1', en: 'Attribute 1' }, path: '/attr_1', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'คุณสมบัติ 2', en: 'Attribute 2' }, path: '/attr_2', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'คุณสมบัติ', en: 'Attributes' }, path: '/attribute', icon: 'pi pi-tags' },
  { keyAction: 'product_attribute', label: { th: 'ตัวเลือกคุณสมบัติ', en: 'Attribute options' }, path: '/attribute_option', icon: 'pi pi-list' },
];

export const CUSTOM_FIELD_MENU: Submenu = { keyAction: 'custom_field', label: { th: 'ฟิลด์ที่เพิ่มเอง', en: 'Custom fields' }, path: '/custom_field', icon: 'pi pi-plus-circle' };

/** Adds screens that are not entities to the staff menu: the attribute pages, and the custom field screen for administrators. */
export function addScreenItems(menu: MenuItem[], opts: { attributes: boolean; customFields: boolean }): MenuItem[] {
  const labels = menuGroups();
  const group = (key: string): MenuItem => {
    let g = menu.find((m) => m.key === key);
    if (!g) { g = { key, label: labels[key] ?? { th: key, en: key }, submenu: [] }; menu.push(g); }
    return g;
  };
  if (opts.attributes) group('purchasing_stock').submenu.push(...ATTRIBUTE_MENU);
  if (opts.customFields) group('settings').submenu.push(CUSTOM_FIELD_MENU);
  const order = Object.keys(labels);
  return menu.sort((a, b) => order.indexOf(a.key) - order.indexOf(b.key));
}
