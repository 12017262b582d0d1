import { describe, expect, it } from 'vitest';
import { productLabelFields } from './product-dropdown.ts';
import type { SiteSettings } from '../core/app-data.ts';

const DEFAULT_SETTINGS: SiteSettings = { stock_balance_sub_booked_table_type: 'so', do_create_type: 'create_with_so' };

describe('the product dropdown site settings', () => {
  it('pick the fields of each document\'s product picker, code and name by default', () => {
    expect(productLabelFields('quotation', 'product', DEFAULT_SETTINGS, 'th')).toEqual(['code', 'name_th']);
    expect(productLabelFields('sales_order', 'product', { ...DEFAULT_SETTINGS, product_dropdown_so: 'name' } as never, 'en')).toEqual(['name_en']);
    expect(productLabelFields('goods_receipt', 'product', { ...DEFAULT_SETTINGS, product_dropdown_gr: 'code' } as never, 'th')).toEqual(['code']);
    // the quotation's setting does not govern the sales order
    expect(productLabelFields('sales_order', 'product', { ...DEFAULT_SETTINGS, product_dropdown_quotation: 'code' } as never, 'th')).toEqual(['code', 'name_th']);
  });

  it('leave other pickers alone', () => {
    expect(productLabelFields('quotation', 'customer', DEFAULT_SETTINGS, 'th')).toBeNull();
    expect(productLabelFields('price_list', 'product', DEFAULT_SETTINGS, 'th')).toBeNull();
    expect(productLabelFields(undefined, 'product', DEFAULT_SETTINGS, 'th')).toBeNull();
  });
});
