import type { EntitySchema } from './schema-types.ts';

type Bad = (at: string, why: string) => void;
const fieldOf = (e: EntitySchema | undefined, name: string) => e?.fields[name];
const linkTo = (e: EntitySchema | undefined, name: string | undefined, target: string) => !name || (fieldOf(e, name)?.type === 'link' && fieldOf(e, name)?.entity === target);

/**
 * `document.stock`, `document.scan` and a lines field's `pickerSetting` name fields the stock and scan engines
 * read without knowing the document: they must be links of the right kind, so a wrong name fails at start, not
 * at the first posting.
 */
export function checkStockKeys(e: EntitySchema, byName: Map<string, EntitySchema>, bad: Bad): void {
  const d = e.document;
  const lines = d?.lines ? byName.get(fieldOf(e, d.lines)?.entity ?? '') : undefined;
  const s = d?.stock;
  if (s) {
    if (!lines) bad('/document/stock', 'a stock document needs a lines field');
    for (const key of ['inventory', 'toInventory'] as const) if (!linkTo(e, s[key], 'inventory')) bad(`/document/stock/${key}`, `"${s[key]}" is not a link to inventory`);
    for (const key of ['location', 'toLocation'] as const) if (!linkTo(e, s[key], 'product_location')) bad(`/document/stock/${key}`, `"${s[key]}" is not a link to product_location`);
    if ((s.direction === 'transfer') !== !!s.toInventory) bad('/document/stock/toInventory', 'a transfer, and only a transfer, names its destination inventory');
    if (s.lineInventory && !linkTo(lines, s.inventory, 'inventory')) bad('/document/stock/lineInventory', `the lines have no link "${s.inventory}" to inventory`);
    if (s.unitCost && fieldOf(lines, s.unitCost)?.type !== 'money') bad('/document/stock/unitCost', `"${s.unitCost}" is not a money field of the lines`);
    if (s.books) {
      const source = byName.get(s.books.source);
      if (s.direction !== 'out') bad('/document/stock/books', 'only a document that takes stock out is booked ahead');
      if (!source?.document?.lines) bad('/document/stock/books/source', `"${s.books.source}" is not a document with lines`);
      else if (!linkTo(source, s.books.inventory, 'inventory')) bad('/document/stock/books/inventory', `"${s.books.inventory}" is not a link of ${source.name} to inventory`);
    }
  }
  if (d?.scan) {
    if (!s || s.direction === 'transfer') bad('/document/scan', 'a scanned document is a stock document that receives or delivers (document.stock)');
    else if (s.direction !== d.scan.direction) bad('/document/scan/direction', `the document's stock goes "${s.direction}"`);
    if (fieldOf(lines, 'scanned_qty')?.type !== 'decimal') bad('/document/scan', 'the lines need a decimal field "scanned_qty"');
  }
  for (const [name, f] of Object.entries(e.fields)) {
    if (f.pickerSetting && f.type !== 'lines') bad(`/fields/${name}/pickerSetting`, 'only a lines field has a product picker setting');
  }
}
