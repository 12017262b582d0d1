import { describe, expect, it } from 'vitest';
import { pickerSort, productLabelFields } from './product-dropdown.ts';
import { readFileSync } from 'node:fs';
import type { SiteSettings } from '../core/app-data.ts';
import type { EntitySchema } from '../../../engine/schema/schema-types.ts';

const DEFAULT_SETTINGS: SiteSettings = { stock_balance_sub_booked_table_type: 'so', do_create_type: 'create_with_so' };

describe('the product dropdown site settings', () => {
  it('are named by the lines field of each document that picks products (pickerSetting)', () => {
    const settingOf = (name: string) => {
      const doc = JSON.parse(readFileSync(new URL(`../../../schemas/${name}.json`, import.meta.url), 'utf8')) as EntitySchema;
      return doc.fields[doc.document!.lines!]!.pickerSetting;
    };
    expect(['quotation', 'sales_order', 'delivery_order', 'purchase_order', 'goods_receipt', 'internal_product_transfer'].map(settingOf))
      .toEqual(['product_dropdown_quotation', 'product_dropdown_so', 'product_dropdown_do', 'product_dropdown_po', 'product_dropdown_gr', 'product_dropdown_ipt']);
  });


  it('pick the fields of each document\'s product picker, code and name by default', () => {
    expect(productLabelFields('product_dropdown_quotation', 'product_id', DEFAULT_SETTINGS, 'th')).toEqual(['code', 'name_th']);
    expect(productLabelFields('product_dropdown_so', 'product_id', { ...DEFAULT_SETTINGS, product_dropdown_so: 'name' } as never, 'en')).toEqual(['name_en']);
    expect(productLabelFields('product_dropdown_gr', 'product_id', { ...DEFAULT_SETTINGS, product_dropdown_gr: 'code' } as never, 'th')).toEqual(['code']);
    // the quotation's setting does not govern the sales order
    expect(productLabelFields('product_dropdown_so', 'product_id', { ...DEFAULT_SETTINGS, product_dropdown_quotation: 'code' } as never, 'th')).toEqual(['code', 'name_th']);
  });

  it('leave other pickers alone', () => {
    expect(productLabelFields('product_dropdown_quotation', 'customer_id', DEFAULT_SETTINGS, 'th')).toBeNull();
    expect(productLabelFields(undefined, 'product_id', DEFAULT_SETTINGS, 'th')).toBeNull();
  });

  it('list the choices in the order of the first field they show: code first, by code (issue 48 §4)', () => {
    expect(pickerSort('name_th', productLabelFields('product_dropdown_so', 'product_id', DEFAULT_SETTINGS, 'th') ?? undefined)).toBe('code');
    expect(pickerSort('name_th', productLabelFields('product_dropdown_so', 'product_id', { ...DEFAULT_SETTINGS, product_dropdown_so: 'name' } as never, 'th') ?? undefined)).toBe('name_th');
    // a picker no setting governs keeps its display field
    expect(pickerSort('name_th', undefined)).toBe('name_th');
  });
});
