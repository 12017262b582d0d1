import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemaSet, SchemaLoadError, type SchemaSource } from './schema-loader.ts';

type Json = Record<string, any>;
const DIR = resolve(import.meta.dirname, '../../schemas');
const files = (): Map<string, Json> => new Map(readdirSync(DIR).filter((f) => f.endsWith('.json')).map((f) => [f, JSON.parse(readFileSync(join(DIR, f), 'utf8'))]));

/** Loads the real schemas with one file changed, and answers the problems found (none: []). */
function problemsWith(file: string, change: (e: Json) => void): { file: string; pointer: string; reason: string }[] {
  const set = files();
  change(set.get(file)!);
  const sources: SchemaSource[] = [...set].map(([f, e]) => ({ file: f, text: JSON.stringify(e) }));
  try { loadSchemaSet(sources); return []; } catch (err) { expect(err).toBeInstanceOf(SchemaLoadError); return (err as SchemaLoadError).problems; }
}

describe('the stock, scan and picker keys', () => {
  it('are declared by the stock documents of schemas/, and they load', () => {
    expect(problemsWith('goods_receipt.json', () => {})).toEqual([]);
    const stock = [...files().values()].filter((e) => e.document?.stock).map((e) => [e.name, e.document.stock.direction, e.document.scan?.direction ?? null]);
    expect(stock.sort()).toEqual([['delivery_order', 'out', 'out'], ['goods_receipt', 'in', 'in'], ['internal_product_transfer', 'transfer', null], ['pos_order', 'out', null]]);
  });

  it('must name links of the right kind', () => {
    expect(problemsWith('goods_receipt.json', (e) => { e.document.stock.inventory = 'supplier_id'; })).toContainEqual(expect.objectContaining({ pointer: '/document/stock/inventory' }));
    expect(problemsWith('internal_product_transfer.json', (e) => { e.document.stock.toLocation = 'to_inventory_id'; })).toContainEqual(expect.objectContaining({ pointer: '/document/stock/toLocation' }));
    expect(problemsWith('goods_receipt.json', (e) => { e.document.stock.unitCost = 'qty'; })).toContainEqual(expect.objectContaining({ pointer: '/document/stock/unitCost' }));
    expect(problemsWith('delivery_order.json', (e) => { e.document.stock.books.source = 'customer'; })).toContainEqual(expect.objectContaining({ pointer: '/document/stock/books/source' }));
  });

  it('scan only a document whose stock goes the same way, with lines that count scans', () => {
    expect(problemsWith('goods_receipt.json', (e) => { e.document.scan.direction = 'out'; })).toContainEqual(expect.objectContaining({ pointer: '/document/scan/direction' }));
    expect(problemsWith('internal_product_transfer.json', (e) => { e.document.scan = { direction: 'out', displayOnlySetting: 'x' }; })).toContainEqual(expect.objectContaining({ pointer: '/document/scan' }));
    expect(problemsWith('goods_receipt.json', (e) => { e.document.scan.unknown = 1; }).length).toBeGreaterThan(0);
  });

  it('put a picker setting only on a lines field', () => {
    expect(problemsWith('quotation.json', (e) => { e.fields.customer_id.pickerSetting = 'product_dropdown_so'; })).toContainEqual(expect.objectContaining({ pointer: '/fields/customer_id/pickerSetting' }));
  });
});
