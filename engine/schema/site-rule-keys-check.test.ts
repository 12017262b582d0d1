import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaSet, SchemaLoadError, type SchemaSource } from './schema-loader.ts';

type Json = Record<string, any>;
const DIR = resolve(import.meta.dirname, '../../schemas');
const files = (): Map<string, Json> => new Map(readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8'))]));

/** Loads the real schemas with one file changed, and answers the pointers of the problems found (none: []). */
function problemsWith(file: string, change: (e: Json) => void): string[] {
  const set = files();
  change(set.get(file)!);
  const sources: SchemaSource[] = [...set].map(([f, e]) => ({ file: f, text: JSON.stringify(e) }));
  try { loadSchemaSet(sources); return []; } catch (err) { expect(err).toBeInstanceOf(SchemaLoadError); return (err as SchemaLoadError).problems.map((p) => p.pointer); }
}

describe('the site-setting rule keys of a document', () => {
  it('are declared by the purchasing and delivery documents, and they load', () => {
    expect(problemsWith('purchase_order.json', () => {})).toEqual([]);
    const declared = [...files().values()].filter((e) => e.document).map((e) => [e.name, !!e.document.sourceRequiredWhen, !!e.document.uniqueLineProduct, !!e.document.stock?.lineInventorySetting, e.document.autoCreate?.map((a: Json) => a.target) ?? []])
      .filter(([, a, b, c, d]) => a || b || c || (d as string[]).length);
    expect(declared.sort()).toEqual([
      ['delivery_order', true, false, false, []],
      ['goods_receipt', false, false, true, []],
      ['purchase_order', false, true, false, ['goods_receipt']],
    ]);
  });

  it('name real settings, options, states and line fields', () => {
    expect(problemsWith('delivery_order.json', (e) => { e.document.sourceRequiredWhen.setting = 'no_such_setting'; })).toContain('/document/sourceRequiredWhen/setting');
    expect(problemsWith('delivery_order.json', (e) => { e.document.sourceRequiredWhen.equals = 'sometimes'; })).toContain('/document/sourceRequiredWhen/equals');
    expect(problemsWith('delivery_order.json', (e) => { e.document.sourceRequiredWhen.states = ['drafted']; })).toContain('/document/sourceRequiredWhen/states/0');
    expect(problemsWith('quotation.json', (e) => { e.document.sourceRequiredWhen = { setting: 'do_create_type', equals: 'create_with_so', states: ['draft'] }; })).toContain('/document/sourceRequiredWhen');
    expect(problemsWith('purchase_order.json', (e) => { e.document.uniqueLineProduct.field = 'qty'; })).toContain('/document/uniqueLineProduct/field');
    expect(problemsWith('purchase_order.json', (e) => { e.document.uniqueLineProduct.unlessSetting = 'do_create_type'; })).toContain('/document/uniqueLineProduct/unlessSetting');
    expect(problemsWith('goods_receipt.json', (e) => { e.document.stock.lineInventorySetting = 'is_po_allow_duplicate_product_x'; })).toContain('/document/stock/lineInventorySetting');
    expect(problemsWith('goods_receipt.json', (e) => { delete e.document.stock.lineInventory; })).toContain('/document/stock/lineInventorySetting');
  });

  it('auto-create only a document made from this one, on a real move, under boolean settings', () => {
    expect(problemsWith('purchase_order.json', (e) => { e.document.autoCreate[0].target = 'delivery_order'; })).toContain('/document/autoCreate/0/target');
    expect(problemsWith('purchase_order.json', (e) => { e.document.autoCreate[0].to = 'posted'; })).toContain('/document/autoCreate/0/to');
    expect(problemsWith('purchase_order.json', (e) => { e.document.autoCreate[0].settings = ['do_create_type']; })).toContain('/document/autoCreate/0/settings/0');
    expect(problemsWith('purchase_order.json', (e) => { e.document.autoCreate[0].when = []; }).length).toBeGreaterThan(0);
  });
});
